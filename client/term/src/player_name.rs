//! The name a person plays under: [`PlayerName`] holds one the server keeps exactly as
//! typed. Sessions give it to the server in `hello` on every connection, before taking (or
//! taking back) a seat or queueing.
//!
//! The server keeps a `hello` name with its control characters removed, trimmed, and cut to
//! [`NAME_MAX_CHARS`] characters, and ignores one with nothing left. The client refuses every
//! such name before connecting, so the name others read is the name that was typed.

use std::fmt;

/// Most characters (Unicode scalar values) a name may have: the server keeps no more.
pub const NAME_MAX_CHARS: usize = 24;

/// Why a name cannot be used as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Nothing but spaces (or nothing at all).
    #[error("the name is empty: give at least one letter, digit or sign")]
    Blank,
    /// Longer than [`NAME_MAX_CHARS`].
    #[error("the name has {chars} characters, and the server keeps at most {NAME_MAX_CHARS}")]
    TooLong {
        /// How many characters it has.
        chars: usize,
    },
    /// A control character (a tab, a newline, an escape), which the server removes.
    #[error("the name holds a control character (such as a tab or a newline), which the server would remove")]
    Control,
    /// A space (or other blank) first or last, which the server trims.
    #[error("the name starts or ends with a space, which the server would cut off")]
    Edge,
}

/// A name the server keeps exactly as it is: 1 to [`NAME_MAX_CHARS`] characters, no control
/// characters, no blank at either end.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PlayerName(String);

impl PlayerName {
    /// `raw` as a name, or why the server would not keep it as it is.
    pub fn parse(raw: &str) -> Result<PlayerName, NameError> {
        if raw.trim().is_empty() && !raw.chars().any(char::is_control) {
            return Err(NameError::Blank);
        }
        if raw.chars().any(char::is_control) {
            return Err(NameError::Control);
        }
        if raw.trim() != raw {
            return Err(NameError::Edge);
        }
        let chars = raw.chars().count();
        if chars > NAME_MAX_CHARS {
            return Err(NameError::TooLong { chars });
        }
        Ok(PlayerName(raw.to_owned()))
    }

    /// The name as typed (and as the server keeps it).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PlayerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::str::FromStr for PlayerName {
    type Err = NameError;

    fn from_str(raw: &str) -> Result<PlayerName, NameError> {
        PlayerName::parse(raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the server does with a `hello` name (control characters removed, trimmed, cut
    /// to the limit, nothing left: none), restated here to check the client's refusals
    /// against it.
    fn server_keeps(raw: &str) -> Option<String> {
        let kept: String = raw.chars().filter(|c| !c.is_control()).collect();
        let cut: String = kept.trim().chars().take(NAME_MAX_CHARS).collect();
        let cut = cut.trim_end();
        (!cut.is_empty()).then(|| cut.to_owned())
    }

    #[test]
    fn names_the_server_keeps_as_typed_are_taken() {
        for raw in [
            "Ana",
            "ada lovelace",
            "Zoë",
            "李小龍",
            "x",
            "R2-D2 (the 2nd)",
        ] {
            let name = PlayerName::parse(raw).expect("a name kept as typed");
            assert_eq!(name.as_str(), raw);
            assert_eq!(server_keeps(raw).as_deref(), Some(raw));
        }
        let longest = "é".repeat(NAME_MAX_CHARS);
        assert_eq!(
            PlayerName::parse(&longest).map(|n| n.to_string()),
            Ok(longest.clone()),
            "the limit counts characters, not bytes"
        );
        assert_eq!(
            "Ana".parse::<PlayerName>().map(|n| n.to_string()),
            Ok("Ana".into())
        );
    }

    #[test]
    fn names_the_server_would_change_or_drop_are_refused_with_the_reason() {
        let cases = [
            ("", NameError::Blank),
            ("   ", NameError::Blank),
            (" Ana", NameError::Edge),
            ("Ana ", NameError::Edge),
            ("Ana\u{3000}", NameError::Edge),
            ("An\ta", NameError::Control),
            ("Ana\n", NameError::Control),
            ("\u{1b}[31mAna", NameError::Control),
            ("\t", NameError::Control),
            (
                "Ana the Unbelievably Bold",
                NameError::TooLong { chars: 25 },
            ),
        ];
        for (raw, why) in cases {
            assert_eq!(PlayerName::parse(raw), Err(why.clone()), "{raw:?}");
            assert_ne!(
                server_keeps(raw).as_deref(),
                Some(raw),
                "{raw:?} is refused only when the server would not keep it as typed"
            );
        }
    }

    #[test]
    fn each_refusal_is_one_sentence_saying_what_to_change() {
        let said = |raw: &str| PlayerName::parse(raw).expect_err("refused").to_string();
        assert_eq!(
            said(""),
            "the name is empty: give at least one letter, digit or sign"
        );
        assert_eq!(
            said(&"a".repeat(30)),
            "the name has 30 characters, and the server keeps at most 24"
        );
        assert!(said("a\tb").contains("control character"));
        assert!(said(" a").contains("starts or ends with a space"));
        for raw in ["", " a", "a\tb", &"a".repeat(30)] {
            let sentence = said(raw);
            assert!(
                !sentence.ends_with('.') && !sentence.contains(". "),
                "{sentence}"
            );
        }
    }
}
