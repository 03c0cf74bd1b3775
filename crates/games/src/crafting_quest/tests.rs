//! Tests: the conformance suite and rule positions.

use super::*;

engine::conformance_tests!(CraftingQuest, ENTRY);
