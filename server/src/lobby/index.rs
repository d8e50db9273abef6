//! The lobby's index of public battles in creation order, which `list` pages through.
//!
//! Every battle gets a creation number when it is registered; the public ones are kept in a
//! `BTreeMap` from that number to the battle's id. A page is a range walk after the cursor
//! (the number of the last battle on the page before), so it costs O(limit + log n) however
//! many battles there are, and battles coming and going between pages move nothing: a page
//! holds the battles created after the cursor that are still there.

use std::collections::BTreeMap;
use std::ops::Bound;

use battle_protocol::{BattleSummary, ClientMsg, ErrorCode};

use crate::refusal::Refusal;

/// The public battles in creation order, and the creation counter. Kept under one lock by
/// the lobby: a battle's number is taken and the battle indexed in one step, so the index
/// never holds a battle before one created earlier is in it (a cursor never skips a battle
/// created before it).
#[derive(Debug, Default)]
pub(crate) struct Index {
    /// The next creation number.
    next: u64,
    /// Public battles by creation number.
    public: BTreeMap<u64, String>,
}

/// What a `list` request asks for, checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PageRequest {
    /// Battles created after this number (unbounded: from the first).
    after: Bound<u64>,
    /// Most battles on the page.
    limit: usize,
}

/// The index entries of one page, read under the lock; the summaries are looked up after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PageIds {
    /// Creation number and id of each battle on the page, oldest first.
    pub ids: Vec<(u64, String)>,
    /// How many public battles there are.
    pub total: usize,
    /// Where the next page starts; `None` on the last page.
    pub next_cursor: Option<String>,
}

/// One page of `list`.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// At most the limit asked for, oldest first.
    pub battles: Vec<BattleSummary>,
    /// How many public battles there are in all.
    pub total: usize,
    /// Where the next page starts; `None` on the last page.
    pub next_cursor: Option<String>,
}

impl Index {
    /// Number a new battle and index it when it is public; returns its creation number.
    pub fn enlist(&mut self, id: &str, private: bool) -> u64 {
        let created = self.next;
        self.next += 1;
        if !private {
            self.public.insert(created, id.to_owned());
        }
        created
    }

    /// A battle went away.
    pub fn remove(&mut self, created: u64) {
        self.public.remove(&created);
    }

    /// The entries of the page `request` asks for.
    pub fn page(&self, request: PageRequest) -> PageIds {
        let mut range = self.public.range((request.after, Bound::Unbounded));
        let ids: Vec<(u64, String)> = range
            .by_ref()
            .take(request.limit)
            .map(|(created, id)| (*created, id.clone()))
            .collect();
        let more = range.next().is_some();
        let next_cursor = ids
            .last()
            .filter(|_| more)
            .map(|(created, _)| created.to_string());
        PageIds {
            ids,
            total: self.public.len(),
            next_cursor,
        }
    }
}

impl PageRequest {
    /// Check `list`'s `cursor` and `limit`: absent, the first page of
    /// [`ClientMsg::LIST_LIMIT_DEFAULT`]; a limit over [`ClientMsg::LIST_LIMIT_MAX`] is taken
    /// as the maximum; 0, or a cursor this server could not have given, is `bad_message`.
    pub fn new(cursor: Option<&str>, limit: Option<u32>) -> Result<PageRequest, Refusal> {
        let limit = match limit {
            None => ClientMsg::LIST_LIMIT_DEFAULT,
            Some(0) => {
                return Err(Refusal::new(
                    ErrorCode::BadMessage,
                    format!(
                        "limit: 1 to {} battles per page, not 0",
                        ClientMsg::LIST_LIMIT_MAX
                    ),
                ))
            }
            Some(limit) => limit.min(ClientMsg::LIST_LIMIT_MAX),
        };
        let after = match cursor {
            None => Bound::Unbounded,
            Some(text) => Bound::Excluded(text.parse().map_err(|_| {
                Refusal::new(
                    ErrorCode::BadMessage,
                    format!(
                        "cursor: {text:?} is not a cursor this server gave; pass back a \
                         page's next_cursor as it came, or leave it out for the first page"
                    ),
                )
            })?),
        };
        Ok(PageRequest {
            after,
            // A u32 always fits a usize on the platforms tokio supports.
            limit: limit as usize,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(page: &PageIds) -> Vec<&str> {
        page.ids.iter().map(|(_, id)| id.as_str()).collect()
    }

    fn request(cursor: Option<&str>, limit: u32) -> PageRequest {
        PageRequest::new(cursor, Some(limit)).expect("a valid request")
    }

    #[test]
    fn pages_walk_the_public_battles_in_creation_order() {
        let mut index = Index::default();
        for (n, private) in [false, true, false, false, true, false, false]
            .iter()
            .enumerate()
        {
            index.enlist(&format!("b{n}"), *private);
        }
        let first = index.page(request(None, 2));
        assert_eq!((ids(&first), first.total), (vec!["b0", "b2"], 5));
        let cursor = first.next_cursor.expect("more follow");
        let second = index.page(request(Some(&cursor), 2));
        assert_eq!(ids(&second), vec!["b3", "b5"]);
        let cursor = second.next_cursor.expect("more follow");
        let last = index.page(request(Some(&cursor), 2));
        assert_eq!(ids(&last), vec!["b6"]);
        assert_eq!(last.next_cursor, None, "the last page has no cursor");
        // A page that ends exactly at the last battle is the last page too.
        let exact = index.page(request(Some(&cursor), 1));
        assert_eq!(
            (ids(&exact), exact.next_cursor.as_deref()),
            (vec!["b6"], None)
        );
    }

    #[test]
    fn a_cursor_survives_battles_going_and_coming() {
        let mut index = Index::default();
        let numbers: Vec<u64> = (0..6)
            .map(|n| index.enlist(&format!("b{n}"), false))
            .collect();
        let first = index.page(request(None, 3));
        let cursor = first.next_cursor.expect("more follow");
        // The cursor's own battle and the next one go; a new one comes.
        index.remove(numbers[2]);
        index.remove(numbers[3]);
        index.enlist("b6", false);
        let rest = index.page(request(Some(&cursor), 10));
        assert_eq!((ids(&rest), rest.total), (vec!["b4", "b5", "b6"], 5));
        assert_eq!(rest.next_cursor, None);
    }

    #[test]
    fn limits_default_clamp_and_refuse_zero() {
        let mut index = Index::default();
        for n in 0..300 {
            index.enlist(&format!("b{n}"), false);
        }
        let default = PageRequest::new(None, None).expect("valid");
        assert_eq!(index.page(default).ids.len(), 50);
        assert_eq!(index.page(request(None, 1_000)).ids.len(), 200);
        assert_eq!(index.page(request(None, 200)).ids.len(), 200);
        let Refusal { code, message: why } =
            PageRequest::new(None, Some(0)).expect_err("0 is refused");
        assert_eq!(code, ErrorCode::BadMessage);
        assert!(why.contains("limit"), "{why}");
        for bad in ["", "abc", "-1", "1.5"] {
            let Refusal { code, .. } = PageRequest::new(Some(bad), None).expect_err("not a cursor");
            assert_eq!(code, ErrorCode::BadMessage, "{bad:?}");
        }
    }
}
