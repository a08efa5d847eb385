//! Work, not time. A test about cost (that a step is linear, that an
//! input cannot make it blow up) measures how much work a run does, never
//! how long it takes, so that a loaded machine cannot fail it: the
//! measure is the number of allocations (calls to `alloc` and `realloc`)
//! the run makes, counted by the test binary's global allocator. The
//! timings themselves belong to the benchmark (`scripts/bench`).
//!
//! A test binary that measures declares the allocator once:
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOCATOR: playbookdiff_testkit::work::Allocator = playbookdiff_testkit::work::ALLOCATOR;
//! ```
//!
//! The counter is global, and the test harness runs tests in parallel
//! threads, so a measuring test runs itself alone in a child process
//! first ([`alone!`](crate::alone)); the child measures, the parent
//! returns once the child passed.
//!
//! Allocations count the work of the analysis well: every file read,
//! path, item, row and finding is allocated, so a step that visits every
//! server for every server, or every package from every launch directory,
//! allocates in proportion. A loop that only compares what is already
//! allocated is not seen; tests pick sizes whose work is dominated by
//! what the analysis builds.

use std::alloc::System;

pub use stats_alloc::StatsAlloc;

/// The type of the counting allocator a measuring test binary declares.
pub type Allocator = &'static StatsAlloc<System>;

/// The counting allocator (the system allocator, instrumented).
pub const ALLOCATOR: Allocator = &stats_alloc::INSTRUMENTED_SYSTEM;

/// The environment variable that marks the child process of [`alone`].
const CHILD: &str = "PLAYBOOKDIFF_TESTKIT_WORK_CHILD";

/// The allocations (calls to `alloc` and `realloc`) `f` makes, counted by
/// `allocator`, the binary's global allocator; and what `f` returned.
pub fn allocations<T>(allocator: Allocator, f: impl FnOnce() -> T) -> (u64, T) {
    let region = stats_alloc::Region::new(allocator);
    let out = f();
    let change = region.change();
    ((change.allocations + change.reallocations) as u64, out)
}

/// True in the child process where the test `name` (its path in the test
/// binary, `check::linear`) runs alone, so that it may measure; in the
/// parent, runs that child (the same binary, `--exact name`, one thread),
/// panics with its output when it fails, and returns false: the caller
/// returns. [`alone!`](crate::alone) passes the calling module's path.
pub fn alone(name: &str) -> bool {
    if std::env::var_os(CHILD).is_some() {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .args([name, "--exact", "--test-threads=1", "--nocapture"])
        .env(CHILD, "1")
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{name}, run alone, failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("1 passed"),
        "{name}: no such test in the child:\n{stdout}"
    );
    false
}

/// The test path of `name` in a module whose `module_path!()` is
/// `module`: the crate's name left out (`cli::check` gives `check::name`).
pub fn test_path(module: &str, name: &str) -> String {
    match module.split_once("::") {
        Some((_, inner)) => format!("{inner}::{name}"),
        None => name.to_string(),
    }
}

/// [`alone`] for the test function `name` of the calling module.
#[macro_export]
macro_rules! alone {
    ($name:expr) => {
        $crate::work::alone(&$crate::work::test_path(module_path!(), $name))
    };
}

/// The work of a run of size `2 * n` over the work of a run of size `n`,
/// each measured as [`allocations`] of `run` on what `prepare` made for
/// that size (a repository, rows; not measured): about 2 for a linear
/// step, 4 for a quadratic one. Panics when the run of size `n`
/// allocates nothing (nothing was measured).
pub fn growth<S>(
    allocator: Allocator,
    n: usize,
    prepare: impl Fn(usize) -> S,
    run: impl Fn(&S),
) -> f64 {
    let measure = |size: usize| {
        let input = prepare(size);
        allocations(allocator, || run(&input)).0
    };
    let small = measure(n);
    let large = measure(2 * n);
    assert!(small > 0, "nothing was allocated: nothing was measured");
    let ratio = large as f64 / small as f64;
    let _ = writeln_visible(&format!(
        "work: {small} allocations at n = {n}, {large} at 2n: x{ratio:.2}"
    ));
    ratio
}

fn writeln_visible(line: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    writeln!(std::io::stderr(), "{line}")
}
