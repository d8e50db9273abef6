//! Actions: their typed shapes, full validation before any change, and the resolution of a
//! played card (synergy, full spectrum, effect, score, draws, discard, automatic turn end).

use battle_protocol::Seat;
use serde::{Deserialize, Serialize};

use super::cards::{EffectContext, EffectKind, Sigil, GEAR_SYNERGY_DRAW};
use super::error::SynergyError;
use super::score::{self, SPECTRUM_BONUS, SPECTRUM_MULTIPLIER};
use super::state::{Battle, Phase};
use crate::legal::Legal;
use crate::words;

/// One decision of the acting side: `{"kind": "play_card", "card": <instance id>}` or
/// `{"kind": "end_turn"}`; any other shape (extra keys included) is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Play the card with this instance id from the hand.
    PlayCard {
        /// The card's instance id.
        card: u32,
    },
    /// End the turn. (A struct variant, `{}`: serde refuses unknown fields only there.)
    EndTurn {},
}

impl Battle {
    /// Every action `seat` may take now: one play per playable card in hand order, then
    /// ending the turn. Empty when it is not `seat`'s turn.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Legal<Action>> {
        if self.active_seat() != Some(seat) {
            return Vec::new();
        }
        let side = &self.sides[seat];
        side.zones
            .hand
            .iter()
            .filter(|card| card.def.cost <= side.energy)
            .map(|card| Legal::Act(Action::PlayCard { card: card.id }))
            .chain(std::iter::once(Legal::Act(Action::EndTurn {})))
            .collect()
    }

    /// Checks and applies one action by `seat`. Everything that can refuse is checked before
    /// the first change, so a refusal leaves the battle exactly as it was.
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<(), SynergyError> {
        if self.phase == Phase::GameOver {
            return Err(SynergyError::GameOver);
        }
        if self.active_seat() != Some(seat) {
            return Err(SynergyError::NotYourTurn(seat));
        }
        match action {
            Action::EndTurn {} => self.end_turn(seat, false),
            Action::PlayCard { card: id } => {
                let side = &self.sides[seat];
                let pos = side
                    .zones
                    .hand_position(id)
                    .ok_or(SynergyError::NoSuchCard(id))?;
                let cost = side.zones.hand[pos].def.cost;
                if cost > side.energy {
                    return Err(SynergyError::NotEnoughEnergy {
                        cost,
                        energy: side.energy,
                    });
                }
                self.play(seat, pos)
            }
        }
    }

    /// Resolves the card at `pos` in `seat`'s hand; the caller has checked it is playable.
    fn play(&mut self, seat: Seat, pos: usize) -> Result<(), SynergyError> {
        let foe = 1 - seat;
        let side = &mut self.sides[seat];
        let card = side.zones.hand.remove(pos);
        let def = card.def;
        side.energy -= def.cost;
        side.sigils[def.sigil.index()] += 1;
        let synergy = side.sigil_count(def.sigil) >= 2;
        let spectrum_now = !side.spectrum_taken && side.full_spectrum();
        if spectrum_now {
            side.spectrum_taken = true;
            side.multiplier = SPECTRUM_MULTIPLIER;
        }
        let focus = if def.deals_damage() { side.focus } else { 0 };
        let out = def.effect(EffectContext { synergy, focus });
        if out.focus_used {
            side.focus = 0;
        }
        side.focus += out.focus_gain;
        side.block += out.block;
        let gain = score::card_score(
            def.kind,
            synergy && def.sigil == Sigil::Void,
            side.multiplier,
        );
        let score_before = side.score;
        side.score += gain.total;
        let score_after = side.score;
        let block_before = side.block - out.block;
        let (name, total_block, new_focus) = (side.name.clone(), side.block, side.focus);

        let mut pieces: Vec<String> = Vec::new();
        if def.deals_damage() {
            let opp = &mut self.sides[foe];
            let (hp_before, block_before) = (opp.hp, opp.block);
            let hit = opp.take_damage(out.damage);
            let mut parts = Vec::new();
            if focus > 0 || out.damage > def.value {
                parts.push(format!("{} base", def.value));
            }
            if focus > 0 {
                parts.push(format!("{focus} focus"));
            }
            if out.damage > def.value + focus {
                parts.push(format!("{} Flame synergy", out.damage - def.value - focus));
            }
            let mut piece = format!(
                "{} takes {}",
                opp.name,
                words::damage(out.damage, hp_before, opp.hp)
            );
            if !parts.is_empty() || hit.blocked > 0 {
                let mut why = parts.join(" + ");
                if hit.blocked > 0 {
                    if !why.is_empty() {
                        why.push_str(", ");
                    }
                    let block = words::gain(i64::from(block_before), i64::from(opp.block), "block");
                    why.push_str(&format!("{} blocked, {block}", hit.blocked));
                }
                piece.push_str(&format!(": {why}"));
            }
            pieces.push(piece);
        }
        if def.gains_block() {
            let change = words::gain(i64::from(block_before), i64::from(total_block), "block");
            pieces.push(format!("{name}: {change}"));
        }
        if def.effect == EffectKind::Focus {
            pieces.push(format!(
                "the next attack this turn deals +{new_focus} damage"
            ));
        }
        if def.effect == EffectKind::StripBlock {
            let opp = &mut self.sides[foe];
            let before = opp.block;
            opp.lose_block(out.strip_block);
            pieces.push(if before == 0 {
                format!("{} has no block to remove", opp.name)
            } else {
                let change = words::gain(i64::from(before), i64::from(opp.block), "block");
                format!("{}: {change}", opp.name)
            });
        }
        if out.draw > 0 {
            // The card is still resolving: it is in no zone while the draw happens.
            let note = (synergy && def.sigil == Sigil::Gear)
                .then(|| format!("{GEAR_SYNERGY_DRAW} from Gear synergy"));
            pieces.push(self.draw(seat, out.draw, note));
        }
        let effect = pieces.join("; ");
        let with = if synergy {
            format!(" with {} synergy", def.sigil.as_str())
        } else {
            String::new()
        };
        self.log.push(format!(
            "{name} plays {}{with}: {effect}; {}{}.",
            def.name,
            words::gain(i64::from(score_before), i64::from(score_after), "score"),
            gain.explain()
        ));
        if spectrum_now {
            let before = self.sides[seat].score;
            self.sides[seat].score += SPECTRUM_BONUS;
            let bonus = words::gain(
                i64::from(before),
                i64::from(self.sides[seat].score),
                "score",
            );
            self.log.push(format!(
                "Full spectrum: {name} has played all four sigils this turn. Its score gains \
                 are doubled for the rest of the turn, and it earns a {SPECTRUM_BONUS} point \
                 bonus: {bonus}."
            ));
        }
        self.sides[seat].zones.discard.push(card);
        if self.sides[seat].has_playable() {
            Ok(())
        } else {
            self.end_turn(seat, true)
        }
    }
}
