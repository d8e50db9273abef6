//! The two kinds of session: [`PlayerSession`] holds a seat and can act;
//! [`SpectatorSession`] watches and has no way to send an action at all. Both follow their
//! battle through a [`BattleFeed`].

use battle_protocol::{Req, Seat};
use serde_json::Value;

use super::entry::Entry;
use super::feed::BattleFeed;
use super::player_name::PlayerName;
use super::reconnect::ReconnectPolicy;
use super::SessionError;
use battle_client::Servers;

/// A seat in a battle: follows the battle and sends this seat's moves.
#[derive(Debug)]
pub struct PlayerSession {
    feed: BattleFeed,
    seat: Seat,
    token: String,
}

impl PlayerSession {
    /// Connect to the first of `servers` that answers (one URL, or several: the nodes of a
    /// cluster, tried in turn after a dropped connection) and take `seat` (or the first free
    /// seat) in `battle_id`, bringing `setup` to it (a deck, a class, a party; `None`: the
    /// ruleset's default). With `name`, every connection of the session gives it in `hello`
    /// first, so the seat is named by it (`None`: the server's "Player N").
    pub async fn join(
        servers: impl Into<Servers>,
        battle_id: &str,
        seat: Option<Seat>,
        setup: Option<Value>,
        name: Option<PlayerName>,
        policy: ReconnectPolicy,
    ) -> Result<PlayerSession, SessionError> {
        let entry = Entry::Join(seat, setup);
        Self::open(servers.into(), battle_id, entry, name, policy).await
    }

    /// Connect to the first of `servers` that answers and take back the seat that `token`
    /// belongs to, giving `name` first on every connection as [`PlayerSession::join`] does.
    pub async fn rejoin(
        servers: impl Into<Servers>,
        battle_id: &str,
        token: &str,
        name: Option<PlayerName>,
        policy: ReconnectPolicy,
    ) -> Result<PlayerSession, SessionError> {
        let entry = Entry::Rejoin(token.to_owned());
        Self::open(servers.into(), battle_id, entry, name, policy).await
    }

    /// The seat `seat` held with `token`, followed through `feed`.
    pub(crate) fn seated(feed: BattleFeed, seat: Seat, token: String) -> PlayerSession {
        PlayerSession { feed, seat, token }
    }

    async fn open(
        servers: Servers,
        battle_id: &str,
        entry: Entry,
        name: Option<PlayerName>,
        policy: ReconnectPolicy,
    ) -> Result<PlayerSession, SessionError> {
        let (feed, seating) = BattleFeed::open(servers, battle_id, entry, name, policy).await?;
        let Some((seat, token)) = seating else {
            return Err(SessionError::Unexpected("joined without a seat".into()));
        };
        Ok(PlayerSession { feed, seat, token })
    }

    /// Our seat.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The seat's token: keep it to `rejoin`.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The battle feed (view, connection state, events).
    pub fn feed(&self) -> &BattleFeed {
        &self.feed
    }

    /// The battle feed, to wait for events.
    pub fn feed_mut(&mut self) -> &mut BattleFeed {
        &mut self.feed
    }

    /// Send `action` (one of the view's `legal` entries) for our seat. Returns the request
    /// number; the answer arrives as an event (a change, or [`Event::Refused`]).
    ///
    /// [`Event::Refused`]: super::Event::Refused
    pub async fn act(&mut self, action: Value) -> Result<Req, SessionError> {
        self.feed.send_act(action).await
    }

    /// Give up the battle: it ends at once and the other side wins.
    pub async fn resign(&mut self) -> Result<Req, SessionError> {
        self.feed.send_resign().await
    }

    /// Leave the battle (the seat stays ours for `rejoin`) and close the connection.
    pub async fn quit(self) {
        self.feed.leave().await;
    }
}

/// A spectator's session: follows a battle read-only. It deliberately has no method that
/// sends an action.
#[derive(Debug)]
pub struct SpectatorSession {
    feed: BattleFeed,
}

impl SpectatorSession {
    /// Connect to the first of `servers` that answers and watch `battle_id`.
    pub async fn watch(
        servers: impl Into<Servers>,
        battle_id: &str,
        policy: ReconnectPolicy,
    ) -> Result<SpectatorSession, SessionError> {
        let (feed, _) =
            BattleFeed::open(servers.into(), battle_id, Entry::Spectate, None, policy).await?;
        Ok(SpectatorSession { feed })
    }

    /// The battle feed (view, connection state, events).
    pub fn feed(&self) -> &BattleFeed {
        &self.feed
    }

    /// The battle feed, to wait for events.
    pub fn feed_mut(&mut self) -> &mut BattleFeed {
        &mut self.feed
    }

    /// Stop watching and close the connection.
    pub async fn quit(self) {
        self.feed.leave().await;
    }
}

/// Either kind of session, for front ends that serve both. Only the `Player` arm can act.
#[derive(Debug)]
pub enum AnySession {
    /// A seat.
    Player(PlayerSession),
    /// A spectator.
    Spectator(SpectatorSession),
}

impl AnySession {
    /// The battle feed of either kind.
    pub fn feed(&self) -> &BattleFeed {
        match self {
            AnySession::Player(s) => s.feed(),
            AnySession::Spectator(s) => s.feed(),
        }
    }

    /// The battle feed of either kind, to wait for events.
    pub fn feed_mut(&mut self) -> &mut BattleFeed {
        match self {
            AnySession::Player(s) => s.feed_mut(),
            AnySession::Spectator(s) => s.feed_mut(),
        }
    }

    /// Leave and close.
    pub async fn quit(self) {
        match self {
            AnySession::Player(s) => s.quit().await,
            AnySession::Spectator(s) => s.quit().await,
        }
    }
}
