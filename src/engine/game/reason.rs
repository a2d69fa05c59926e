//! Why an action is refused: [`Illegal`], carrying a stable [`Reason`] code and a message for
//! people. The codes (and their one-line docs) are the list `reasons!` below; scenarios, the
//! protocol and `explain` name them.

use std::fmt;

/// Why an action was refused. The code is stable; the message is for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal {
    pub code: Reason,
    pub message: String,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.code(), self.message)
    }
}

impl std::error::Error for Illegal {}

macro_rules! reasons {
    ($($name:ident = $code:literal: $doc:literal,)*) => {
        /// Rejection reason codes (stable, kebab-case).
        // Each variant's doc is its message for people (`explain`), which names rule paths such
        // as `rounds[N].all-at-once`: text, not links.
        #[allow(rustdoc::broken_intra_doc_links)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Reason { $(#[doc = $doc] $name,)* }
        impl Reason {
            pub const ALL: &'static [Reason] = &[$(Reason::$name,)*];
            pub fn code(self) -> &'static str { match self { $(Reason::$name => $code,)* } }
            pub fn doc(self) -> &'static str { match self { $(Reason::$name => $doc,)* } }
            pub fn from_code(s: &str) -> Option<Reason> { Reason::ALL.iter().copied().find(|r| r.code() == s) }
        }
    };
}

reasons! {
    GameOver = "game-over": "the game has ended",
    NotYourTurn = "not-your-turn": "another seat is to play",
    MustDrawFirst = "must-draw-first": "a turn starts with a draw: take the discard or push",
    AlreadyDrew = "already-drew": "the draw was already made this turn",
    NoPlainDraw = "no-plain-draw": "there is no plain draw from the stock: take the discard or push",
    DiscardPileEmpty = "discard-pile-empty": "there is no discard to take or push",
    PushNotAllowed = "push-not-allowed": "the stock is too small to push (push-with-one-stock-card), or buying replaces the push (buying.allowed)",
    CardNotInHand = "card-not-in-hand": "the player does not hold that card",
    InvalidMeld = "invalid-meld": "the cards form no legal meld",
    AmbiguousWild = "ambiguous-wild": "the meld can mean more than one thing; declare the wilds (wild-declaration)",
    DeclarationRequired = "declaration-required": "the meld's kind, or every wild, must be declared (wild-declaration)",
    DeclarationNotAllowed = "declaration-not-allowed": "wilds are not declared where they float (wild-declaration)",
    ContractNotMet = "contract-not-met": "the melds do not meet this deal's contract",
    ContractFirst = "contract-first": "no melding, lay-off or rescue before one's own contract",
    NextTurnOnly = "next-turn-only": "after the contract, more melds wait until the next turn (contract-turn-extras)",
    SameRankSet = "same-rank-set": "a player may not have two sets of one rank (same-rank-sets=forbidden)",
    NoSuchMeld = "no-such-meld": "no meld on the table has that number",
    InvalidLayOff = "invalid-lay-off": "the cards do not extend that meld",
    JoinNotAllowed = "join-not-allowed": "runs may not be joined (run-join-split=never)",
    RescueNotAllowed = "rescue-not-allowed": "rescue is not allowed now (rescue-timing)",
    RescueNoMatch = "rescue-no-match": "no wild in that meld stands for that natural card",
    RescueFrozen = "rescue-frozen": "that 2 can never be rescued (frozen-two)",
    RescuedWildNotMelded = "rescued-wild-not-melded": "the rescued wild must be melded at once (rescued-wild-fate=meld-same-turn)",
    DiscardNotAllowed = "discard-not-allowed": "that card may not be discarded (discard-restrictions, discard.wilds)",
    MustDiscard = "must-discard": "a card can be discarded, so the turn must end with a discard",
    GoingOutByDiscardOnly = "going-out-by-discard-only": "a player goes out only by discarding (going-out=discard-only)",
    GoingOutBeforeContract = "going-out-before-contract": "a player goes out only once his own contract is met; with one card left and no contract, he keeps it and ends the turn",
    AllAtOnce = "all-at-once": "in a deal played all at once the contract goes down only with every card in hand, and that is going out (rounds[N].all-at-once)",
    GoingOutOnContractTurn = "going-out-on-contract-turn": "a player may not go out on the turn his contract goes down (going-out.not-on-contract-turn)",
    MustDraw = "must-draw": "no card may be discarded: draw from the stock until one may (discard.when-none-allowed=draw-until-allowed)",
    BuyingNotAllowed = "buying-not-allowed": "buying out of turn is not allowed (buying.allowed)",
    NoBuyWindow = "no-buy-window": "nothing to buy now: the top discard is bought after the player on turn draws from the stock, by a seat asked in turn order",
    BuyLimit = "buy-limit": "the seat has made all the buys it may this hand (buying.per-hand)",
    BuyWhenDown = "buy-when-down": "a seat that has met its contract may not buy (buying.when-down=forbidden)",
    MustBuyOrPass = "must-buy-or-pass": "the seat asked whether it buys the top discard must buy or pass",
}

#[cold]
pub(super) fn illegal(code: Reason, message: impl Into<String>) -> Illegal {
    Illegal {
        code,
        message: message.into(),
    }
}
