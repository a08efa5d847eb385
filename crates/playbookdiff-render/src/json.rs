//! The JSON document of the output contract.

use playbookdiff_model::EffectiveAgentConfig;

/// Serializes `config` as the contract's JSON document: pretty-printed,
/// camelCase keys, ending with a newline.
pub fn to_json(config: &EffectiveAgentConfig) -> String {
    // The model holds only strings, numbers, booleans, sequences and structs
    // with string keys, so serialization cannot fail.
    let mut out = serde_json::to_string_pretty(config)
        .expect("EffectiveAgentConfig always serializes to JSON");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use playbookdiff_model::AnalysisContext;
    /// Test harnesses with the contract ids and product names.
    const CLAUDE: playbookdiff_model::Harness =
        playbookdiff_model::Harness::new("claude-code", "Claude Code");

    #[test]
    fn pretty_with_trailing_newline_and_contract_keys() {
        let config = EffectiveAgentConfig::new(CLAUDE, AnalysisContext::at_root());
        let out = to_json(&config);
        assert!(out.ends_with("}\n"));
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["schemaVersion"], 1);
        assert_eq!(v["harness"], "claude-code");
        assert_eq!(v["context"]["repositoryRoot"], ".");
        assert_eq!(v["context"]["targetPath"], serde_json::Value::Null);
        for key in [
            "instructions",
            "skills",
            "mcpServers",
            "diagnostics",
            "assumptions",
        ] {
            assert!(v[key].is_array(), "{key} is not an array");
        }
    }
}
