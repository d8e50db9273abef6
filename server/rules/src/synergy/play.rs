//! Actions: their JSON shapes, full validation before any change, and the resolution of a
//! played card (synergy, full spectrum, effect, score, draws, discard, automatic turn end).

use battle_protocol::Seat;
use serde_json::Value;

use super::cards::{EffectContext, EffectKind, Sigil, GEAR_SYNERGY_DRAW};
use super::error::SynergyError;
use super::score::{self, SPECTRUM_BONUS, SPECTRUM_MULTIPLIER};
use super::state::{Battle, Phase};
use crate::view::value::ViewValue;

/// One decision of the acting side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// `{"kind": "play_card", "card": <instance id>}`.
    Play(u32),
    /// `{"kind": "end_turn"}`.
    EndTurn,
}

impl Action {
    /// The action as shown in a view's legal actions.
    pub fn to_view(self) -> ViewValue {
        match self {
            Action::Play(card) => {
                ViewValue::object([("card", card.into()), ("kind", "play_card".into())])
            }
            Action::EndTurn => ViewValue::object([("kind", "end_turn".into())]),
        }
    }

    /// The JSON sent as `act.action`.
    pub fn to_json(self) -> Value {
        self.to_view().to_value()
    }

    /// Reads an action, refusing any other shape (extra keys included).
    pub fn parse(value: &Value) -> Result<Action, SynergyError> {
        let bad = |msg: &str| SynergyError::BadAction(msg.to_string());
        let Value::Object(map) = value else {
            return Err(bad("an action must be a JSON object with a \"kind\""));
        };
        let kind = match map.get("kind") {
            Some(Value::String(kind)) => kind.as_str(),
            Some(_) => return Err(bad("\"kind\" must be a string")),
            None => return Err(bad("the action has no \"kind\"")),
        };
        match kind {
            "play_card" => {
                if map.keys().any(|k| k != "kind" && k != "card") {
                    return Err(bad("play_card takes only \"kind\" and \"card\""));
                }
                let card = map
                    .get("card")
                    .ok_or_else(|| bad("play_card needs \"card\": a card instance id"))?;
                card.as_u64()
                    .and_then(|id| u32::try_from(id).ok())
                    .map(Action::Play)
                    .ok_or_else(|| bad("\"card\" must be a card instance id (a whole number)"))
            }
            "end_turn" => {
                if map.len() != 1 {
                    return Err(bad("end_turn takes only \"kind\""));
                }
                Ok(Action::EndTurn)
            }
            other => Err(SynergyError::BadAction(format!(
                "unknown action kind \"{other}\"; use \"play_card\" or \"end_turn\""
            ))),
        }
    }
}

impl Battle {
    /// Every action `seat` may take now: one play per playable card in hand order, then
    /// ending the turn. Empty when it is not `seat`'s turn.
    pub fn legal(&self, seat: Seat) -> Vec<Action> {
        if self.active_seat() != Some(seat) {
            return Vec::new();
        }
        let side = &self.sides[seat];
        side.zones
            .hand
            .iter()
            .filter(|card| card.def.cost <= side.energy)
            .map(|card| Action::Play(card.id))
            .chain(std::iter::once(Action::EndTurn))
            .collect()
    }

    /// Checks and applies one action by `seat`. Everything that can refuse is checked before
    /// the first change, so a refusal leaves the battle exactly as it was.
    pub fn act(&mut self, seat: Seat, value: &Value) -> Result<(), SynergyError> {
        if self.phase == Phase::GameOver {
            return Err(SynergyError::GameOver);
        }
        if self.active_seat() != Some(seat) {
            return Err(SynergyError::NotYourTurn(seat));
        }
        match Action::parse(value)? {
            Action::EndTurn => self.end_turn(seat, false),
            Action::Play(id) => {
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
        side.score += gain.total;
        let (name, total_block, new_focus) = (side.name, side.block, side.focus);

        let mut pieces: Vec<String> = Vec::new();
        if def.deals_damage() {
            let opp = &mut self.sides[foe];
            let hit = opp.take_damage(out.damage);
            let mut parts = Vec::new();
            if focus > 0 {
                parts.push(format!("{focus} focus"));
            }
            if out.damage > def.value + focus {
                parts.push(format!("{} Flame synergy", out.damage - def.value - focus));
            }
            let mut piece = format!("deals {} damage", out.damage);
            if !parts.is_empty() {
                piece.push_str(&format!(" ({} base + {})", def.value, parts.join(" + ")));
            }
            if hit.blocked > 0 {
                piece.push_str(&format!(", {} blocked", hit.blocked));
            }
            piece.push_str(&format!(", {} has {} HP", opp.name, opp.hp));
            pieces.push(piece);
        }
        if def.gains_block() {
            pieces.push(format!("gains {} block ({total_block} in all)", out.block));
        }
        if def.effect == EffectKind::Focus {
            pieces.push(format!(
                "the next attack this turn deals +{new_focus} damage"
            ));
        }
        if def.effect == EffectKind::StripBlock {
            let opp = &mut self.sides[foe];
            let removed = opp.lose_block(out.strip_block);
            pieces.push(format!(
                "{} loses {removed} block ({} left)",
                opp.name, opp.block
            ));
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
            "{name} plays {}{with}: {effect}; +{} score{}.",
            def.name,
            gain.total,
            gain.explain()
        ));
        if spectrum_now {
            self.sides[seat].score += SPECTRUM_BONUS;
            self.log.push(format!(
                "Full spectrum: {name} has played all four sigils this turn. Its score gains \
                 are doubled for the rest of the turn, and it earns a {SPECTRUM_BONUS} point \
                 bonus."
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
