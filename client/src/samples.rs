//! The rulesets a server offers and their named option sets (samples), from `welcome`: what a
//! client creates by default, and which seats people play in a battle made from a sample.

use std::time::Duration;

use battle_protocol::{ClientMsg, RulesetInfo, SampleInfo, Seat, ServerMsg};

use crate::{ClientError, Connection};

/// How long the `welcome` answer may take.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// Ask the server at `url` which rulesets it offers (one short connection).
pub async fn welcome(url: &str) -> Result<Vec<RulesetInfo>, ClientError> {
    let mut conn = tokio::time::timeout(ANSWER_TIMEOUT, Connection::connect(url))
        .await
        .map_err(|_| ClientError::Timeout(ANSWER_TIMEOUT))??;
    conn.send(&ClientMsg::Hello {
        protocol: battle_protocol::PROTOCOL_VERSION,
        name: None,
        req: Some(1),
    })
    .await?;
    let deadline = tokio::time::Instant::now() + ANSWER_TIMEOUT;
    let rulesets = loop {
        let msg = tokio::time::timeout_at(deadline, conn.recv())
            .await
            .map_err(|_| ClientError::Timeout(ANSWER_TIMEOUT))??;
        match msg {
            ServerMsg::Welcome { rulesets, .. } => break rulesets,
            ServerMsg::Error { message, .. } => return Err(ClientError::Refused(message)),
            _ => {}
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), conn.close()).await;
    Ok(rulesets)
}

/// The ruleset `id` among `rulesets`, or why not (naming the ones offered).
pub fn ruleset<'a>(rulesets: &'a [RulesetInfo], id: &str) -> Result<&'a RulesetInfo, String> {
    rulesets.iter().find(|r| r.id == id).ok_or_else(|| {
        let ids: Vec<&str> = rulesets.iter().map(|r| r.id.as_str()).collect();
        format!(
            "the server has no ruleset {id:?}; it offers {}",
            ids.join(", ")
        )
    })
}

/// The sample named `name` of `ruleset`, or why not (naming the samples there are).
pub fn named<'a>(ruleset: &'a RulesetInfo, name: &str) -> Result<&'a SampleInfo, String> {
    ruleset
        .samples
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = ruleset.samples.iter().map(|s| s.name.as_str()).collect();
            format!(
                "{} has no sample {name:?}; its samples are {}",
                ruleset.id,
                names.join(", ")
            )
        })
}

/// The seats people play in a battle of `sample` (every seat the engine does not play).
pub fn people_seats(sample: &SampleInfo) -> Vec<Seat> {
    (0..sample.seats)
        .filter(|seat| !sample.engine_seats.contains(seat))
        .collect()
}

/// For a load test: the first sample in which people play every seat (for synergy, `pvp`),
/// else the first.
pub fn for_load(ruleset: &RulesetInfo) -> Option<&SampleInfo> {
    ruleset
        .samples
        .iter()
        .find(|s| s.engine_seats.is_empty())
        .or_else(|| ruleset.samples.first())
}

/// For a person against the server: the first sample with an engine seat (for synergy, `pve`
/// and its Training Automaton), else the first sample.
pub fn against_bot(ruleset: &RulesetInfo) -> Option<&SampleInfo> {
    ruleset
        .samples
        .iter()
        .find(|s| !s.engine_seats.is_empty())
        .or_else(|| ruleset.samples.first())
}

/// For people against each other: the first sample that leaves at least two seats to people.
pub fn between_people(ruleset: &RulesetInfo) -> Option<&SampleInfo> {
    ruleset.samples.iter().find(|s| people_seats(s).len() >= 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample(name: &str, seats: usize, engine: &[Seat]) -> SampleInfo {
        SampleInfo {
            name: name.into(),
            about: String::new(),
            options: json!({}),
            seats,
            engine_seats: engine.to_vec(),
        }
    }

    fn synergy() -> RulesetInfo {
        RulesetInfo {
            id: "synergy".into(),
            version: 1,
            summary: String::new(),
            min_seats: 2,
            max_seats: 2,
            samples: vec![sample("pve", 2, &[1]), sample("pvp", 2, &[])],
        }
    }

    #[test]
    fn defaults_follow_the_samples() {
        let synergy = synergy();
        assert_eq!(for_load(&synergy).map(|s| s.name.as_str()), Some("pvp"));
        assert_eq!(against_bot(&synergy).map(|s| s.name.as_str()), Some("pve"));
        assert_eq!(
            between_people(&synergy).map(|s| s.name.as_str()),
            Some("pvp")
        );
        assert_eq!(people_seats(&synergy.samples[0]), vec![0]);
        assert_eq!(people_seats(&synergy.samples[1]), vec![0, 1]);
        let solo = RulesetInfo {
            samples: vec![sample("solo", 1, &[])],
            ..synergy.clone()
        };
        assert_eq!(between_people(&solo), None);
        assert_eq!(against_bot(&solo).map(|s| s.name.as_str()), Some("solo"));
    }

    #[test]
    fn unknown_names_are_refused_with_the_known_ones() {
        let synergy = synergy();
        let err = named(&synergy, "coop").expect_err("no such sample");
        assert_eq!(
            err,
            "synergy has no sample \"coop\"; its samples are pve, pvp"
        );
        let err = ruleset(&[synergy], "chess").expect_err("no such ruleset");
        assert!(err.contains("it offers synergy"), "{err}");
    }
}
