//! The context packet (stub replaced below).
