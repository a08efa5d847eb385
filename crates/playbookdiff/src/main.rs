//! The `playbookdiff` command.
//!
//! Architecture invariant: this crate is the only one that prints, reads the
//! environment (current directory, `NO_COLOR`, the terminal) or chooses an
//! exit status ([`ExitStatus`]).

mod brief_disk;
mod check;
mod cli;
mod compile;
mod context;
mod diff;
mod exit;
mod git_hook;
mod guard;
mod guard_check;
mod guard_disk;
mod habits;
mod layout;
mod mcp;
mod project;
mod remedies;
mod round;
mod round_audit;
mod round_check;
mod round_probe;
mod round_rulings;
mod sink;
mod upgrade;

use clap::error::{ContextKind, ErrorKind};
use cli::{Cli, ColorArg, Command};
use exit::ExitStatus;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    if let Some(status) = guard::fast_hook(&std::env::args_os().collect::<Vec<_>>()) {
        return status.into();
    }
    ExitCode::from(run())
}

/// Carries out the command line and says how it ended.
fn run() -> ExitStatus {
    install_panic_hook();
    let current_dir = std::env::current_dir().ok();
    let args = help_word_as_flag(std::env::args_os().collect(), current_dir.as_deref());
    if let Some(line) = habits::help_of_no_command(&args, current_dir.as_deref()) {
        report(&format!("error: {line}"));
        return ExitStatus::CouldNotRun;
    }
    // Help text wraps at the output's width like every other text (clap's
    // own default is 100 columns when standard output is no terminal).
    let parsed = usage_wrapped(
        <Cli as clap::CommandFactory>::command().term_width(output_width()),
        output_width(),
    )
    .try_get_matches_from(&args)
    .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return clap_failure(&e, &args, current_dir.as_deref()),
    };
    let here = current_dir.as_deref();
    if cli.command.is_none() {
        if let Some(line) =
            habits::misread_repository(cli.view.context.repo.as_deref(), &args, here)
        {
            report(&format!("error: {line}"));
            return ExitStatus::CouldNotRun;
        }
    }
    use playbookdiff_render::Color;
    let wants_color = match cli.color {
        ColorArg::Auto if stdout_wants_color() => Color::Ansi,
        ColorArg::Auto | ColorArg::Never => Color::Plain,
        ColorArg::Always => Color::Ansi,
    };
    let columns = output_width();
    let mut out = sink::Sink::stdout();
    let result = playbookdiff_render::with_width(columns, || match &cli.command {
        Some(Command::Compile(a)) => {
            let color = a.output_format().color(wants_color);
            compile::run(a, here, color, &mut out).map(|()| check::Outcome {
                output: String::new(),
                status: ExitStatus::Success,
            })
        }
        Some(Command::Completions(a)) => {
            let mut out = Vec::new();
            clap_complete::generate(
                a.shell,
                &mut <Cli as clap::CommandFactory>::command(),
                "playbookdiff",
                &mut out,
            );
            Ok(check::Outcome {
                output: String::from_utf8_lossy(&out).into_owned(),
                status: ExitStatus::Success,
            })
        }
        Some(Command::Layout(a)) => layout::run(a),
        Some(Command::Round(r)) => match round::brief_id_names_a_directory(r.target(), &args, here)
        {
            Some(line) => Err(context::UsageError(line)),
            None => round::run(r, here),
        },
        Some(Command::Guard(g)) => guard::run(g, here).map_err(context::UsageError),
        Some(Command::Mcp) => mcp::run()
            .map_err(context::UsageError)
            .map(|()| check::Outcome {
                output: String::new(),
                status: ExitStatus::Success,
            }),
        Some(Command::Man) => man_page().map(|output| check::Outcome {
            output,
            status: ExitStatus::Success,
        }),
        Some(Command::Check(a)) => {
            let color = a.output_format().color(wants_color);
            let mut bar = Progress::new();
            let r = check::run_check(
                a,
                here,
                color,
                &mut |done, total| bar.update(done, total),
                &mut out,
            );
            bar.finish();
            r
        }
        Some(Command::Explain(a)) => {
            let color = a.output_format().color(wants_color);
            check::run_explain(a, here, color, &mut out)
        }
        Some(Command::Diff(a)) => {
            let color = a.output_format().color(wants_color);
            diff::run_diff(a, here, color, &mut out)
        }
        Some(Command::Upgrade(a)) => {
            let color = a.output_format().color(wants_color);
            upgrade::run_upgrade(a, here, color, &mut out)
        }
        None => check::run_view(&cli.view, here, wants_color),
    });
    match result {
        Ok(outcome) => match write_stdout(out, &outcome.output) {
            ExitStatus::Success => outcome.status,
            failed => failed,
        },
        Err(e) => {
            report(&format!("error: {e}"));
            ExitStatus::CouldNotRun
        }
    }
}

/// The manual page (roff), generated from the command line's definition
/// (clap_mangen): one page holding the command's synopsis, description
/// and options, then a section per command (`PLAYBOOKDIFF CHECK`, …) with
/// its synopsis, description, options and examples. It refers to no other
/// page: clap_mangen's list of subcommands names pages such as
/// `playbookdiff-check(1)`, which are not generated, so it is left out.
fn man_page() -> Result<String, context::UsageError> {
    let mut cmd = <Cli as clap::CommandFactory>::command();
    cmd.build();
    let failed =
        |e: std::io::Error| context::UsageError(format!("the manual page cannot be rendered: {e}"));
    let top = clap_mangen::Man::new(cmd.clone());
    let mut title = Vec::new();
    top.render_title(&mut title).map_err(failed)?;
    let title = String::from_utf8_lossy(&title).into_owned();
    // Every rendered part starts with the same roff preamble; the page
    // keeps the first.
    let preamble = &title[..title.find(".TH").unwrap_or(0)];
    let part = |render: &dyn Fn(&mut Vec<u8>) -> std::io::Result<()>| {
        let mut bytes = Vec::new();
        render(&mut bytes).map_err(failed)?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        Ok::<String, context::UsageError>(text.strip_prefix(preamble).unwrap_or(&text).to_string())
    };
    let mut page = title.clone();
    page.push_str(&part(&|w| top.render_name_section(w))?);
    page.push_str(&part(&|w| top.render_synopsis_section(w))?);
    page.push_str(&part(&|w| top.render_description_section(w))?);
    page.push_str(&part(&|w| top.render_options_section(w))?);
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_bin_name().unwrap_or_else(|| sub.get_name());
        page.push_str(&format!(".SH \"{}\"\n", name.to_uppercase()));
        let man = clap_mangen::Man::new(sub.clone());
        let mut text = part(&|w| man.render_synopsis_section(w))?;
        text.push_str(&part(&|w| man.render_description_section(w))?);
        if sub.get_arguments().any(|a| !a.is_hide_set()) {
            text.push_str(&part(&|w| man.render_options_section(w))?);
        }
        if sub.get_after_help().is_some() || sub.get_after_long_help().is_some() {
            text.push_str(&part(&|w| man.render_extra_section(w))?);
        }
        // The command's own sections are subsections of its section;
        // its after-help (examples) reads as "EXAMPLES AND NOTES".
        for line in text.lines() {
            match line.strip_prefix(".SH ") {
                Some("EXTRA") => page.push_str(".SS \"EXAMPLES AND NOTES\"\n"),
                Some(heading) => page.push_str(&format!(".SS {heading}\n")),
                None => page.push_str(&format!("{line}\n")),
            }
        }
    }
    if cmd.get_after_help().is_some() || cmd.get_after_long_help().is_some() {
        let extra = part(&|w| top.render_extra_section(w))?;
        page.push_str(&extra.replacen(".SH EXTRA", ".SH \"EXAMPLES AND NOTES\"", 1));
    }
    Ok(page)
}

/// `playbookdiff help [COMMAND]` is read as `playbookdiff [COMMAND] --help`,
/// unless the current directory holds an entry named `help` (then it is
/// the REPO argument, as before).
fn help_word_as_flag(
    mut args: Vec<std::ffi::OsString>,
    current_dir: Option<&std::path::Path>,
) -> Vec<std::ffi::OsString> {
    let is_help = args.get(1).is_some_and(|a| a == "help");
    let is_directory =
        current_dir.is_some_and(|d| std::fs::symlink_metadata(d.join("help")).is_ok());
    if is_help && !is_directory {
        args.remove(1);
        args.push("--help".into());
    }
    args
}

/// A progress bar on standard error for `check --all-dirs`: only when
/// standard error is a terminal, and only once the work has taken more
/// than a second.
struct Progress {
    start: std::time::Instant,
    tty: bool,
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    fn new() -> Self {
        use std::io::IsTerminal;
        Progress {
            start: std::time::Instant::now(),
            tty: std::io::stderr().is_terminal(),
            bar: None,
        }
    }

    fn update(&mut self, done: usize, total: usize) {
        if !self.tty || total < 2 {
            return;
        }
        if self.bar.is_none() && self.start.elapsed() > std::time::Duration::from_secs(1) {
            let bar = indicatif::ProgressBar::with_draw_target(
                Some(total as u64),
                indicatif::ProgressDrawTarget::stderr(),
            );
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} launch directories {elapsed}",
            ) {
                bar.set_style(style);
            }
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(done as u64);
        }
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// The width of the text output: `COLUMNS` when it is set to a number
/// (POSIX: it overrides the terminal's width), else the terminal's when
/// standard output is one, else 80 columns (a pipe, a file, CI logs).
fn output_width() -> usize {
    use std::io::IsTerminal;
    if let Some(n) = std::env::var("COLUMNS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n > 0)
    {
        return n;
    }
    let stdout = std::io::stdout();
    if !stdout.is_terminal() {
        return playbookdiff_render::DEFAULT_WIDTH;
    }
    terminal_size::terminal_size_of(&stdout).map_or(playbookdiff_render::DEFAULT_WIDTH, |(w, _)| {
        usize::from(w.0)
    })
}

/// Colour only on a terminal, and never when `NO_COLOR` is set
/// (`CLICOLOR`/`CLICOLOR_FORCE` are honoured too).
fn stdout_wants_color() -> bool {
    anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
}

/// Writes what a command returned after what it rendered into `out`, and
/// flushes.
fn write_stdout(mut out: sink::Sink, output: &str) -> ExitStatus {
    out.write(output);
    match out.finish() {
        Ok(()) => ExitStatus::Success,
        // The reader went away (e.g. `| head`): nothing left to do.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitStatus::Success,
        Err(e) => {
            report(&format!("error: cannot write the output: {e}"));
            ExitStatus::CouldNotRun
        }
    }
}

/// Writes one note (a sentence that does not change the exit status) to
/// standard error, wrapped at its width (the terminal's, else 80 columns).
pub(crate) fn note(line: &str) {
    use std::io::IsTerminal;
    let stderr = std::io::stderr();
    let width = if stderr.is_terminal() {
        terminal_size::terminal_size_of(&stderr)
            .map_or(playbookdiff_render::DEFAULT_WIDTH, |(w, _)| {
                usize::from(w.0)
            })
    } else {
        playbookdiff_render::DEFAULT_WIDTH
    };
    report(&wrap_note(line, width));
}

/// `line` wrapped at `width` columns (characters), the lines after the
/// first indented under the text after `note: `. A word in single quotes
/// or backticks (`'with space'`) is never broken, nor is a word wider
/// than `width`.
fn wrap_note(line: &str, width: usize) -> String {
    let indent = " ".repeat(if line.starts_with("note: ") { 6 } else { 2 });
    let mut words: Vec<String> = Vec::new();
    let mut open = false;
    for w in line.split(' ') {
        match words.last_mut() {
            Some(last) if open => {
                last.push(' ');
                last.push_str(w);
            }
            _ => words.push(w.to_string()),
        }
        if (w.matches('\'').count() + w.matches('`').count()) % 2 == 1 {
            open = !open;
        }
    }
    let mut out = String::new();
    let mut current = String::new();
    for w in words {
        let len = current.chars().count();
        if len > indent.len() && len + 1 + w.chars().count() > width {
            out.push_str(current.trim_end());
            out.push('\n');
            current = format!("{indent}{w}");
        } else {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(&w);
        }
    }
    out.push_str(&current);
    out
}

/// `cmd` and its subcommands with their usage lines wrapped at `width`
/// columns (characters), the lines after the first indented under the
/// first word after `Usage: `: clap wraps the help's paragraphs at its
/// `term_width` but never the usage line (clap 4.6).
fn usage_wrapped(mut cmd: clap::Command, width: usize) -> clap::Command {
    cmd.build();
    wrap_usages(&mut cmd, width);
    cmd
}

/// Gives `cmd` and each of its subcommands (built, so that each knows its
/// whole name) a usage wrapped at `width` when its own is wider.
fn wrap_usages(cmd: &mut clap::Command, width: usize) {
    const PREFIX: &str = "Usage: ";
    let usage = cmd.render_usage().to_string();
    let usage = usage.trim_end();
    if usage.lines().any(|l| l.chars().count() > width) {
        let body = usage.strip_prefix(PREFIX).unwrap_or(usage);
        let first_word = body.split(' ').next().unwrap_or("");
        let wrapped = wrap_words(body, width.saturating_sub(PREFIX.len()), first_word);
        *cmd = cmd.clone().override_usage(wrapped);
    }
    for sub in cmd.get_subcommands_mut() {
        wrap_usages(sub, width);
    }
}

/// `text`'s words (split at spaces) on lines of at most `width` columns,
/// the lines after the first indented by the width of `PREFIX` plus
/// `lead` and a space; a word wider than `width` stays whole.
fn wrap_words(text: &str, width: usize, lead: &str) -> String {
    let indent = " ".repeat("Usage: ".len() + lead.chars().count() + 1);
    let mut lines: Vec<String> = vec![String::new()];
    for w in text.split(' ') {
        let current = lines.last_mut().expect("one line at least");
        let fits = current.chars().count() + 1 + w.chars().count() <= width;
        if current.trim().is_empty() || fits {
            if !current.trim().is_empty() {
                current.push(' ');
            }
            current.push_str(w);
        } else {
            lines.push(format!("{}{w}", &indent["Usage: ".len()..]));
        }
    }
    lines.join(&format!("\n{}", " ".repeat("Usage: ".len())))
}

/// Writes one line to standard error.
fn report(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Help and version go to standard output with status 0. A bare
/// `playbookdiff` shows the help on standard error with status 2. Every other
/// parse error becomes one line: clap's own first line, the accepted values
/// or a suggestion when clap has one, and where to find the usage.
fn clap_failure(
    e: &clap::Error,
    args: &[std::ffi::OsString],
    current_dir: Option<&std::path::Path>,
) -> ExitStatus {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Written like every command's output, so that a failed write
            // (a full disk) is an error, and a closed pipe is not.
            let text = if stdout_wants_color() {
                e.render().ansi().to_string()
            } else {
                e.render().to_string()
            };
            write_stdout(sink::Sink::stdout(), &text)
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitStatus::CouldNotRun
        }
        _ => {
            let unexpected = match e.get(ContextKind::InvalidArg) {
                Some(clap::error::ContextValue::String(w))
                    if e.kind() == ErrorKind::UnknownArgument =>
                {
                    Some(w.as_str())
                }
                _ => None,
            };
            if let Some(line) = habits::compile_compares(args)
                .or_else(|| {
                    unexpected.and_then(|w| habits::repo_given_the_other_way(args, w, current_dir))
                })
                .or_else(|| habits::misparsed(args, current_dir))
            {
                report(&format!("error: {line}"));
                return ExitStatus::CouldNotRun;
            }
            // The help of the (sub)command the line names, as deep as it
            // goes: `playbookdiff guard status --help`.
            let mut command = String::from("playbookdiff");
            for name in habits::command_path(args) {
                command.push(' ');
                command.push_str(&name);
            }
            command.push_str(" --help");
            report(&one_line_clap_error(e, &command));
            ExitStatus::CouldNotRun
        }
    }
}

fn one_line_clap_error(e: &clap::Error, help_command: &str) -> String {
    let rendered = e.render().to_string();
    let first = rendered
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("error: invalid arguments")
        .trim_end();
    let mut line = first.to_string();
    // "the following required arguments were not provided:" lists the
    // arguments on the lines below; bring them onto this one.
    if line.ends_with(':') {
        if let Some(missing) = e.get(ContextKind::InvalidArg).map(comma_list) {
            line.push(' ');
            line.push_str(&missing);
        }
    }
    let valid = e.get(ContextKind::ValidValue).map(comma_list);
    let close = match (
        e.get(ContextKind::InvalidValue),
        e.get(ContextKind::ValidValue),
    ) {
        (
            Some(clap::error::ContextValue::String(given)),
            Some(clap::error::ContextValue::Strings(values)),
        ) => habits::closest(given, values).map(str::to_string),
        _ => None,
    };
    if let (Some(close), Some(valid)) = (close, valid.as_ref()) {
        line.push_str(&format!("; did you mean '{close}'? (one of: {valid})"));
    } else if let Some(valid) = valid.filter(|v| !v.is_empty()) {
        line.push_str(&format!("; use one of: {valid}"));
    } else if let Some(suggested) = e
        .get(ContextKind::SuggestedArg)
        .or_else(|| e.get(ContextKind::SuggestedSubcommand))
        .or_else(|| e.get(ContextKind::SuggestedValue))
    {
        line.push_str(&format!("; did you mean '{}'?", comma_list(suggested)));
    }
    line.push_str(&format!(" (see '{help_command}')"));
    line
}

fn comma_list(value: &clap::error::ContextValue) -> String {
    match value {
        clap::error::ContextValue::Strings(v) => v.join(", "),
        other => other.to_string(),
    }
}

/// An internal error is reported as one line with status 2, never as a
/// panic trace.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let payload = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".to_string());
        let location = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        report(&internal_error_line(&payload, &location));
        ExitStatus::CouldNotRun.exit_now();
    }));
}

fn internal_error_line(payload: &str, location: &str) -> String {
    let first = payload.lines().next().unwrap_or("").trim();
    format!(
        "error: internal error: {first}{location}; please report it with the command that was run"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_wrap_at_the_width_without_breaking_a_quoted_word() {
        let line = "note: REPO 'with space' is inside the git work tree '.': analysed as --cwd 'with space' there (--root: REPO as the root)";
        let wrapped = wrap_note(line, 80);
        assert!(
            wrapped.lines().all(|l| l.chars().count() <= 80),
            "{wrapped}"
        );
        assert_eq!(
            wrapped,
            "note: REPO 'with space' is inside the git work tree '.': analysed as --cwd\n      'with space' there (--root: REPO as the root)"
        );
        assert_eq!(wrap_note("note: short", 80), "note: short");
    }
    use clap::Parser;

    fn parse_error(args: &[&str]) -> clap::Error {
        Cli::try_parse_from(args).unwrap_err()
    }

    #[test]
    fn unknown_harness_is_one_line_with_the_values() {
        let e = parse_error(&["playbookdiff", "compile", "--harness", "windsurf"]);
        let line = one_line_clap_error(&e, "playbookdiff compile --help");
        assert!(!line.contains('\n'), "{line}");
        assert!(line.contains("--harness"), "{line}");
        assert!(line.contains("claude-code, codex"), "{line}");
    }

    #[test]
    fn unknown_flag_suggests() {
        let e = parse_error(&["playbookdiff", "compile", "--targte", "x"]);
        let line = one_line_clap_error(&e, "playbookdiff compile --help");
        assert!(line.contains("--target"), "{line}");
        assert!(!line.contains('\n'), "{line}");
    }

    #[test]
    fn internal_error_is_one_line() {
        let line = internal_error_line("boom\nmore", " at x.rs:1");
        assert_eq!(
            line,
            "error: internal error: boom at x.rs:1; please report it with the command that was run"
        );
    }
}
