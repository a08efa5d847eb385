//! `playbookdiff mcp` as a client sees it on the wire: the harness the
//! other modules' MCP tests use, and the protocol's answers to bad input.

use serde_json::Value;

/// `playbookdiff mcp` on pipes, initialized; each call a request and its
/// answer (newline-delimited JSON-RPC, as the stdio transport frames it).
pub(crate) struct Mcp {
    child: std::process::Child,
    out: std::io::BufReader<std::process::ChildStdout>,
    next: u64,
}

impl Mcp {
    pub(crate) fn start() -> Mcp {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("playbookdiff"))
            .arg("mcp")
            .env_remove("PLAYBOOKDIFF_BRIEF")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let out = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut mcp = Mcp {
            child,
            out,
            next: 0,
        };
        let info = serde_json::json!({"name": "test", "version": "1"});
        mcp.request(
            "initialize",
            serde_json::json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": info}),
        );
        mcp.send(serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        mcp
    }

    pub(crate) fn send(&mut self, v: Value) {
        use std::io::Write;
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{v}").unwrap();
        stdin.flush().unwrap();
    }

    /// The `result` of a request (`null` when the answer is an error).
    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        self.answer(method, params)["result"].clone()
    }

    /// The whole JSON-RPC answer to a request: `result` or `error`.
    pub(crate) fn answer(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.send(
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        );
        loop {
            let v = self.next_message();
            if v["id"] == id {
                return v;
            }
        }
    }

    /// The next line the server writes, as JSON.
    pub(crate) fn next_message(&mut self) -> Value {
        use std::io::BufRead;
        let mut line = String::new();
        assert!(
            self.out.read_line(&mut line).unwrap() > 0,
            "the server closed"
        );
        serde_json::from_str(&line).unwrap()
    }

    /// Writes one raw line to the server, as a client with a bug would.
    pub(crate) fn send_line(&mut self, line: &str) {
        use std::io::Write;
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Closes standard input and waits for the server: its exit status.
    pub(crate) fn close(mut self) -> std::process::ExitStatus {
        drop(self.child.stdin.take());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the server did not stop within 20 s of the end of its input"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    pub(crate) fn call(&mut self, tool: &str, args: Value) -> Value {
        self.request(
            "tools/call",
            serde_json::json!({"name": tool, "arguments": args}),
        )
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

/// A client with a bug gets an answer or silence, never a stopped server:
/// a line that is not JSON is ignored (as rmcp and the other official MCP
/// SDKs do: an answer with no id to correlate could start an error storm,
/// modelcontextprotocol/rust-sdk issue 938); JSON that is no JSON-RPC
/// message is "invalid request" (-32600); a method MCP does not define is
/// "method not found" (-32601) naming the methods answered; an unknown
/// tool is "invalid params" (-32602). After each, the next request is
/// answered, and the end of the input stops the server with status 0.
#[test]
fn bad_input_gets_an_answer_or_silence_and_the_server_goes_on() {
    let mut mcp = Mcp::start();
    mcp.send_line("this is not json");
    mcp.send_line("{\"truncated\": ");
    let tools = mcp.request("tools/list", serde_json::json!({}));
    assert!(
        tools["tools"].as_array().is_some_and(|t| !t.is_empty()),
        "{tools}"
    );

    mcp.send_line(r#"{"hello": "world"}"#);
    let invalid = mcp.next_message();
    assert_eq!(invalid["error"]["code"], -32600, "{invalid}");

    let unknown = mcp.answer("nope/x", serde_json::json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let message = unknown["error"]["message"].as_str().unwrap();
    assert!(message.contains("`nope/x`"), "{message}");
    assert!(message.contains("tools/call"), "{message}");

    let tool = mcp.answer(
        "tools/call",
        serde_json::json!({"name": "compyle", "arguments": {}}),
    );
    assert_eq!(tool["error"]["code"], -32602, "{tool}");
    assert!(
        tool["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`compyle`"),
        "{tool}"
    );

    let ping = mcp.answer("ping", serde_json::json!({}));
    assert!(ping["result"].is_object(), "{ping}");
    assert!(mcp.close().success());
}
