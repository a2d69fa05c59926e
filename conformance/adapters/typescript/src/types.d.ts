// The kit's types: cards, actions, readings and every message of the protocol
// (conformance/README.md, "The protocol"). Cards, actions, melds and readings are values here;
// src/messages.js reads them from their text and writes them back through the notation code.
// Property names are the JSON keys.

// ------------------------------------------------------------------ cards and actions

export type Suit = 'S' | 'H' | 'D' | 'C';

/** A card: rank 1 (ace) … 13 (king) and a suit; both null for a joker. */
export type Card =
  | { readonly rank: number; readonly suit: Suit }
  | { readonly rank: null; readonly suit: null };

/** What a wild stands for: one exact card (`JK=10H`) or a rank (`JK=7`). */
export type Target = { kind: 'card'; card: Card } | { kind: 'rank'; rank: number };

/** One copy of `card` (a wild) stands for `target`. */
export interface Declaration {
  card: Card;
  target: Target;
}

export type MeldKind = 'set' | 'run';

/** A meld as a player puts it down: `set [7S 7H JK JK=7]`. */
export interface MeldSpec {
  cards: Card[];
  kind: MeldKind | null;
  declared: Declaration[];
}

export type MeldAction = { type: 'meld'; melds: MeldSpec[] };
export type LayOffAction = {
  type: 'lay-off';
  /** The table meld laid off onto, from 0. */
  meld: number;
  cards: Card[];
  declared: Declaration[];
  /** The run joined to it, or null. */
  join: number | null;
};

export type Action =
  | { type: 'take-discard' }
  | { type: 'push' }
  | { type: 'draw-stock' }
  | { type: 'end-turn' }
  | { type: 'buy' }
  | { type: 'pass' }
  | { type: 'discard'; card: Card }
  | MeldAction
  | LayOffAction
  | {
      type: 'rescue';
      meld: number;
      natural: Card;
      wild: Card;
      then: MeldAction | LayOffAction | null;
    };

/** One card of a meld and, for a wild, what it stands for (null: natural). */
export interface Role {
  card: Card;
  standsFor: Target | null;
}

/**
 * A reading as `state` writes it: `set 7: JK=7 7S 7H`, `run H 4-7: 4H 2C=5H 6H 7H`. A set has
 * `rank`; a run `suit` (null: any suits, `*`), `low` and `high`; null where the text has `?`.
 */
export interface Reading {
  kind: MeldKind;
  roles: Role[];
  rank: number | null;
  suit: Suit | null;
  low: number | null;
  high: number | null;
}

/** A reading as `observe` writes it: `set of 7s`, `run 4♥–7♥`, `run 4–7` (any suits). */
export interface DescribedReading {
  kind: MeldKind;
  rank: number | null;
  suit: Suit | null;
  low: number | null;
  high: number | null;
}

// ------------------------------------------------------------------ harness → implementation

export interface Hello {
  type: 'hello';
  protocol: number;
}

/** The resolved rules: `values` maps every rule path to its value text (`"decks.jokers": "4"`). */
export interface Rules {
  game: string;
  name: string;
  fingerprint: string;
  values: Record<string, string>;
}

/** A table meld of a start position: `meld` in the action notation, the readings it keeps. */
export interface StartMeld {
  owner: number;
  meld: MeldSpec;
  cards: Card[];
  readings?: Reading[];
}

export interface Position {
  turn: number;
  /** draw, play or buy */
  stage: string;
  taken: Card | null;
  hands: Card[][];
  /** Top card first. */
  stock: Card[];
  /** Top card first. */
  discard: Card[];
  table: StartMeld[];
  contract_met: number[];
  /** Only where the rules allow buying: buys made this hand, per seat. */
  buys?: number[];
  /** Only where the rules allow buying: the player on turn while a buy window is open. */
  window?: number | null;
}

export interface Start {
  type: 'start';
  protocol: number;
  rules: Rules;
  players: number;
  dealer: number;
  /** The deal being played, from 1. */
  round: number;
  scores: number[][];
  /** The SplitMix64 state (decimal text in the JSON: it may exceed 2^53). */
  generator: bigint;
  decks: Card[][];
  position: Position;
}

export interface Apply {
  type: 'apply';
  seat: number;
  action: Action;
}

export type Message =
  | Hello
  | Start
  | Apply
  | { type: 'state' }
  | { type: 'observe'; seat: number }
  | { type: 'legal' }
  | { type: 'end' };

// ------------------------------------------------------------------ events

export type Event =
  | { event: 'dealt'; round: number; dealer: number; first: number }
  | { event: 'upcard-buried'; card: Card }
  | { event: 'upcard'; card: Card }
  | { event: 'took-discard'; seat: number; card: Card }
  | { event: 'pushed'; seat: number; to: number; discard: Card | null; stock: Card[]; face_up: boolean }
  | { event: 'drew'; seat: number; card: Card }
  /** `cards`: how many cards were reshuffled. */
  | { event: 'reshuffled'; cards: number }
  /** `cards` in canonical order. */
  | { event: 'melded'; seat: number; meld: number; cards: Card[]; contract: boolean }
  /** `cards` in the order the action gave them. */
  | { event: 'laid-off'; seat: number; meld: number; cards: Card[]; joined: number | null }
  | { event: 'rescued'; seat: number; meld: number; natural: Card; wild: Card }
  | { event: 'discarded'; seat: number; card: Card }
  | { event: 'bought'; seat: number; card: Card; stock: Card[] }
  | { event: 'passed'; seat: number }
  | { event: 'turn-ended'; seat: number }
  | { event: 'went-out'; seat: number }
  /** `reason`: `seat S went out`, `the stock ran out`, `N turns in a row without …`. */
  | { event: 'hand-ended'; reason: string; points: number[]; totals: number[] }
  /** `winners`: sides. */
  | { event: 'game-ended'; winners: number[]; totals: number[] };

// ------------------------------------------------------------------ state and observation

export interface TableMeld {
  owner: number;
  /** Canonical order. */
  cards: Card[];
  /** Every reading still open (leave out unless you report `readings`). */
  readings?: Reading[];
}

export interface State {
  round: number;
  dealer: number;
  turn: number;
  /** draw, play, buy or over */
  stage: string;
  taken: Card | null;
  /** Per seat, canonical order. */
  hands: Card[][];
  table: TableMeld[];
  stock: { count: number; top: Card | null };
  /** Top card first. */
  discard: Card[];
  /** Per seat: met, and which contract melds are down, in contract order. */
  contract: { met: boolean; filled: boolean[] }[];
  /** Per side. */
  totals: number[];
  /** Only where the rules allow buying. */
  buying?: { window: number | null; buys: number[] };
}

export interface ObservedMeld {
  owner: number;
  cards: Card[];
  readings?: DescribedReading[];
}

export interface Observation {
  seat: number;
  round: number;
  dealer: number;
  turn: number;
  stage: string;
  hand: Card[];
  hand_sizes: number[];
  stock_size: number;
  discard_top: Card | null;
  discard_size: number;
  table: ObservedMeld[];
  contract_done: boolean[];
  totals: number[];
  last_push: { from: number; to: number; stock: Card[] | null } | null;
  /** Only where the rules allow buying; `buys_left` null for unlimited. */
  buying?: { window: number | null; buys_left: (number | null)[] };
}

// ------------------------------------------------------------------ replies

/** What an engine may declare it reports (protocol 2). */
export type Capability = 'reason-codes' | 'events' | 'readings' | 'legal' | 'observe' | 'rescue-wild';

export interface HelloReply {
  type: 'hello';
  protocol: number;
  name: string;
  /** Protocol 2: what the engine reports. */
  reports?: string[];
}
/** `events` may be left out by an engine that does not report them. */
export interface OkReply {
  type: 'ok';
  events?: Event[];
}
/** `reason`: a reason code (conformance/README.md, "Reason codes"). */
export interface RejectedReply {
  type: 'rejected';
  reason?: string;
  message: string;
}
export interface StateReply {
  type: 'state';
  state: State;
}
export interface ObservationReply {
  type: 'observation';
  observation: Observation;
}
export interface LegalReply {
  type: 'legal';
  actions: Action[];
}
export interface UnsupportedReply {
  type: 'unsupported';
  reason: string;
}
export interface ErrorReply {
  type: 'error';
  message: string;
}
export interface ByeReply {
  type: 'bye';
}

export type Reply =
  | HelloReply
  | OkReply
  | RejectedReply
  | StateReply
  | ObservationReply
  | LegalReply
  | UnsupportedReply
  | ErrorReply
  | ByeReply;

// ------------------------------------------------------------------ the engine

type Maybe<T> = T | Promise<T>;

/**
 * What the protocol loop calls (src/protocol.js). One engine serves one run of the program,
 * one scenario or one random game: `start` comes once, after `hello`. Throw `Unsupported` (from
 * src/engine.js) for a rule, reading or action you do not implement; `ProtocolError` for a
 * message you cannot understand. Each method may return a value or a promise of it.
 */
export interface EngineInterface {
  /** The `hello` reply to an offer of `protocol`. */
  hello(protocol: number): Maybe<HelloReply>;
  /** Set up the game at `msg.position` under `msg.rules`. */
  start(msg: Start): Maybe<void>;
  /** Play `action` for `seat`: ok with events, or rejected with a reason code (changing nothing). */
  apply(seat: number, action: Action): Maybe<OkReply | RejectedReply>;
  /** The whole state, as the transcript writes it. */
  state(): Maybe<State>;
  /** What `seat` may see (optional: leave `observe` out of the reports). */
  observe(seat: number): Maybe<Observation>;
  /** The legal actions of the seat to play (optional: leave `legal` out of the reports). */
  legal(): Maybe<Action[]>;
  /** The run ends. */
  end(): Maybe<void>;
}
