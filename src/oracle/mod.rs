//! The rules made into questions: whether cards form a meld and what each wild stands for
//! ([`meld`], held to the brute force of [`meld_reference`]), and whether melds or a hand meet a
//! deal's contract ([`contract`]). Reads only [`crate::rules::Rules`]; knows nothing of turns.

pub mod contract;
pub mod meld;
#[doc(hidden)]
pub mod meld_reference;
