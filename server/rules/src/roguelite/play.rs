//! What the player decides: play a card from the hand (its target is the card's: the enemy
//! or the player), end the turn, and between battles take one offered reward or skip. Each
//! action is checked whole before anything changes.

use battle_protocol::Seat;
use serde::{Deserialize, Serialize};

use super::error::RogueliteError;
use super::speed::Side;
use super::state::{Roguelite, Stage};
use super::status::Kind;
use crate::legal::Legal;
use crate::words;

/// One decision of the player's seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Play a card from the hand, by its number (`id` in the hand's view).
    Play {
        /// The card's number.
        card: u32,
    },
    /// End the phase.
    EndTurn {},
    /// Take an offered reward, by its id.
    Take {
        /// The reward's id.
        reward: String,
    },
    /// Take no reward.
    Skip {},
}

impl Roguelite {
    /// Everything `seat` may do now.
    pub fn legal_for(&self, seat: Seat) -> Vec<Legal<Action>> {
        if seat != 0 {
            return Vec::new();
        }
        match self.stage {
            Stage::PlayerPhase => {
                let mut legal: Vec<Legal<Action>> = self
                    .piles
                    .hand
                    .iter()
                    .filter(|&&c| self.deck[c as usize].cost <= self.energy)
                    .map(|&card| Legal::Act(Action::Play { card }))
                    .collect();
                legal.push(Legal::Act(Action::EndTurn {}));
                legal
            }
            Stage::Reward => self
                .offer
                .iter()
                .map(|r| {
                    Legal::Act(Action::Take {
                        reward: r.id().to_owned(),
                    })
                })
                .chain(std::iter::once(Legal::Act(Action::Skip {})))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Apply `action` by `seat`.
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<(), RogueliteError> {
        if self.stage == Stage::Over {
            return Err(RogueliteError::GameOver);
        }
        if seat != 0 || !matches!(self.stage, Stage::PlayerPhase | Stage::Reward) {
            return Err(RogueliteError::NotYourTurn(seat));
        }
        match action {
            Action::Play { card } => {
                self.in_phase("play a card")?;
                if !self.piles.hand.contains(&card) {
                    return Err(RogueliteError::NotInHand(card));
                }
                let c = self.deck[card as usize];
                if c.cost > self.energy {
                    return Err(RogueliteError::CannotPay {
                        name: c.name,
                        cost: c.cost,
                        energy: self.energy,
                    });
                }
                self.play(card);
            }
            Action::EndTurn {} => {
                self.in_phase("end the turn")?;
                self.end_player_phase();
            }
            Action::Take { reward } => {
                self.between_battles("take a reward")?;
                let Some(index) = self.offer.iter().position(|r| r.id() == reward) else {
                    return Err(RogueliteError::NotOffered(reward));
                };
                self.take_reward(index);
            }
            Action::Skip {} => {
                self.between_battles("skip the reward")?;
                self.skip_reward();
            }
        }
        Ok(())
    }

    fn in_phase(&self, what: &str) -> Result<(), RogueliteError> {
        if self.stage == Stage::PlayerPhase {
            Ok(())
        } else {
            Err(RogueliteError::WrongStage(format!(
                "you can {what} only in your phase"
            )))
        }
    }

    fn between_battles(&self, what: &str) -> Result<(), RogueliteError> {
        if self.stage == Stage::Reward {
            Ok(())
        } else {
            Err(RogueliteError::WrongStage(format!(
                "you can {what} only between battles"
            )))
        }
    }

    /// Play card `card` (in hand, affordable): pay, resolve, Bleed (spec 7: each card
    /// played), discard, and see whether the battle ended.
    pub(super) fn play(&mut self, card: u32) {
        let c = self.deck[card as usize];
        self.energy -= c.cost;
        self.piles.play(card);
        if c.attacks() {
            self.played_attack = true;
        }
        let what = self.resolve(Side::Player, c.effects);
        let mut line = format!("{} plays {} ({} energy)", self.me, c.name, c.cost);
        if !what.is_empty() {
            line.push_str(": ");
            line.push_str(&what);
        }
        if self.player.statuses.has(Kind::Bleed) && !self.player.down() {
            let before = self.player.hp;
            let lost = self.player.lose_hp(self.player.bleed_amount());
            line.push_str(&format!(
                "; {} bleeds: {}",
                self.me,
                words::damage(lost, before, self.player.hp)
            ));
        }
        line.push('.');
        self.log.push(line);
        self.settle();
    }
}
