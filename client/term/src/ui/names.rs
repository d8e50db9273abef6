//! Naming the things on screen without their ids: a card, minion or unit is called by its
//! name, and when its owner has several of that name in play they are told apart by their
//! order ("Copper Squire #2": the second that came in), the same way in every ruleset.

use serde_json::Value;

/// The name of the item with `id` among `group` (one owner's cards, minions or units, in
/// the order they came in): its `name`, with "#N" when the group holds more than one of
/// that name; `None` when `id` is not in the group.
pub fn numbered<'a>(group: impl IntoIterator<Item = &'a Value>, id: &Value) -> Option<String> {
    if id.is_null() {
        return None;
    }
    let group: Vec<&Value> = group.into_iter().collect();
    let item = group.iter().find(|item| item["id"] == *id)?;
    let name = item["name"].as_str().unwrap_or("?");
    let same: Vec<&&Value> = group.iter().filter(|i| i["name"] == item["name"]).collect();
    Some(match same.iter().position(|i| i["id"] == *id) {
        Some(at) if same.len() > 1 => format!("{name} #{}", at + 1),
        _ => name.to_owned(),
    })
}

/// "your Pit Brawler" for the viewer's own (`mine`), else "Ana's Pit Brawler".
pub fn owned(owner: &str, mine: bool, thing: &str) -> String {
    if mine {
        format!("your {thing}")
    } else {
        format!("{owner}'s {thing}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn twins_are_numbered_in_the_order_they_came_in() {
        let group = [
            json!({"id": 43, "name": "Apprentice"}),
            json!({"id": 2, "name": "Pit Brawler"}),
            json!({"id": 47, "name": "Apprentice"}),
        ];
        assert_eq!(numbered(&group, &json!(2)).as_deref(), Some("Pit Brawler"));
        assert_eq!(
            numbered(&group, &json!(47)).as_deref(),
            Some("Apprentice #2")
        );
        assert_eq!(
            numbered(&group, &json!(43)).as_deref(),
            Some("Apprentice #1")
        );
        assert_eq!(numbered(&group, &json!(9)), None);
        assert_eq!(owned("Ana", false, "hero"), "Ana's hero");
        assert_eq!(owned("Ana", true, "hero"), "your hero");
    }
}
