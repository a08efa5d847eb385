//! Integration tests of the source crate, one binary for the crate: git
//! trees and views, and property tests.

mod git_tree;
mod git_view;
mod properties;
mod shared_walk;
