//! The action speed system (spec section 3): the variance roll with mean reversion, the
//! speed modifiers of the statuses, and the consecutive phase table that turns two speeds
//! into the order of a round's phases.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::fighter::Fighter;

/// Spec 3.1: the variance is at most 5% of base speed either way.
pub const VARIANCE_PCT: i32 = 5;
/// The player's base speed (spec 3.1).
pub const PLAYER_SPEED: u32 = 50;

/// Who acts in a phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Side {
    /// The player's seat.
    Player,
    /// The enemy the engine plays.
    Enemy,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Player => Side::Enemy,
            Side::Enemy => Side::Player,
        }
    }
}

/// The variance offset after `previous`, given a uniform draw `draw` in -5..=5: the draw is
/// pulled back towards the mean by half the previous offset (rounded towards 0), then kept
/// within -5..=5. After +5 the next offset is at most +3 and more likely below 0.
pub fn revert(previous: i32, draw: i32) -> i32 {
    (draw - previous / 2).clamp(-VARIANCE_PCT, VARIANCE_PCT)
}

/// Base speed with the offset applied (rounded down), plus the statuses' modifiers; never
/// below 1.
pub fn speed_of(base: u32, offset: i32, modifier: i32) -> u32 {
    let varied = base as i64 * (100 + offset as i64) / 100;
    (varied + modifier as i64).max(1) as u32
}

/// Roll `fighter`'s speed for a new round from the battle's generator: one draw, the mean
/// reversion, then the statuses.
pub fn roll(fighter: &mut Fighter, rng: &mut ChaCha8Rng) {
    let draw = rng.random_range(-VARIANCE_PCT..=VARIANCE_PCT);
    fighter.speed_offset = revert(fighter.speed_offset, draw);
    fighter.speed = speed_of(
        fighter.base_speed,
        fighter.speed_offset,
        fighter.statuses.speed_modifier(),
    );
}

/// Spec 3.3: the phases the faster side takes in a row for a speed difference: under 15,
/// 1 (alternating); 15 or more, 2; 25 or more, 3; each further 10, one more.
pub fn phases_for(difference: u32) -> u32 {
    if difference < 15 {
        1
    } else {
        2 + (difference - 15) / 10
    }
}

/// The phases of a round for these speeds: the faster side's phases in a row, then one of
/// the slower side. Equal speeds go to the player first.
pub fn round(player_speed: u32, enemy_speed: u32) -> Vec<Side> {
    let (faster, difference) = if player_speed >= enemy_speed {
        (Side::Player, player_speed - enemy_speed)
    } else {
        (Side::Enemy, enemy_speed - player_speed)
    };
    let mut phases = vec![faster; phases_for(difference) as usize];
    phases.push(faster.other());
    phases
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_reversion_pulls_back_by_half_the_last_offset() {
        assert_eq!(revert(0, 5), 5);
        assert_eq!(revert(5, 5), 3);
        assert_eq!(revert(5, -5), -5, "clamped");
        assert_eq!(revert(-5, -5), -3);
        assert_eq!(revert(-3, 0), 1);
        assert_eq!(revert(3, 0), -1);
        assert_eq!(revert(1, 0), 0, "half of 1 rounds to 0");
    }

    #[test]
    fn speed_rounds_down_and_never_falls_below_1() {
        assert_eq!(speed_of(50, 5, 0), 52);
        assert_eq!(speed_of(50, -5, 0), 47);
        assert_eq!(speed_of(50, 0, 15), 65);
        assert_eq!(speed_of(25, 0, -45), 1);
    }
}
