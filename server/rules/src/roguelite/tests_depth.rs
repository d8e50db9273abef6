//! Section 8 of the spec: depth picks the enemy pool; enemy stats are hard-coded and never
//! scaled by depth.

use super::enemies::{BATTLES_PER_DEPTH, BOSS, DEPTHS};
use super::state::{enemy_fighter, BATTLES};
use super::testkit::run;

#[test]
fn s8_depth_picks_the_enemy_pool_and_the_last_battle_is_the_boss() {
    assert_eq!(BATTLES, DEPTHS.len() * BATTLES_PER_DEPTH);
    for seed in 0..200 {
        let g = run(seed);
        for (battle, kind) in g.lineup.iter().enumerate() {
            let depth = &DEPTHS[battle / BATTLES_PER_DEPTH];
            if battle + 1 == BATTLES {
                assert_eq!(kind.id, BOSS.id);
            } else {
                assert!(depth.pool.iter().any(|k| k.id == kind.id), "seed {seed}");
            }
        }
        for d in 0..DEPTHS.len() {
            let ids: Vec<&str> = g.lineup[d * 3..d * 3 + 3].iter().map(|k| k.id).collect();
            assert!(
                ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2],
                "{ids:?}"
            );
        }
    }
}

#[test]
fn s8_enemy_stats_are_fixed_per_enemy_never_scaled() {
    for depth in DEPTHS {
        for kind in depth.pool.iter().chain(depth.boss) {
            let f = enemy_fighter(kind);
            assert_eq!(
                (f.max_hp, f.max_ap, f.def_pct, f.base_speed),
                (kind.hp, kind.ap, kind.def_pct, kind.speed)
            );
        }
    }
    // The same enemy met in any run, at any battle, has the same stats.
    let g = super::testkit::against("tide_golem", 3);
    assert_eq!(
        (g.enemy.max_hp, g.enemy.max_ap, g.enemy.def_pct),
        (64, 20, 20)
    );
}
