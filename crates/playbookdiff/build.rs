//! Links the hook executable `playbookdiff-guard` as a position-dependent
//! executable (`-no-pie`): its relocations are resolved when it is linked,
//! so the dynamic loader has none to apply (and no pages to touch for
//! them) each time a host starts it before a tool call. The code itself is
//! position-independent as usual; only the link differs. `playbookdiff`
//! keeps the platform's default.

fn main() {
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if linux {
        println!("cargo:rustc-link-arg-bin=playbookdiff-guard=-no-pie");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
