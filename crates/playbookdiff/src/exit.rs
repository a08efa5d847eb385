//! The command's exit statuses, and their numbers in one place.

use std::process::ExitCode;

/// How a command ended, as its exit status tells it (the exit statuses
/// each command's `--help` and the README give).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: the command was carried out and nothing fails the run, whatever
    /// the diagnostics.
    Success,
    /// 1: `check` or `diff` was carried out and a finding or a problem
    /// fails the run (at or above the fail-on threshold, not accepted).
    Failing,
    /// 2: the command could not be carried out (bad arguments, an
    /// unreadable repository or configuration file, a failed write, an
    /// internal error).
    CouldNotRun,
}

impl ExitStatus {
    /// [`Failing`](Self::Failing) when `failing` holds, else
    /// [`Success`](Self::Success).
    pub fn failing_if(failing: bool) -> Self {
        if failing {
            ExitStatus::Failing
        } else {
            ExitStatus::Success
        }
    }

    /// The status's number, as the process returns it.
    fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Failing => 1,
            ExitStatus::CouldNotRun => 2,
        }
    }

    /// Ends the process at once with this status, for where no value can
    /// be returned to `main` (the panic hook).
    pub fn exit_now(self) -> ! {
        std::process::exit(i32::from(self.code()))
    }
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> Self {
        ExitCode::from(status.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_status_has_its_documented_number() {
        assert_eq!(ExitStatus::Success.code(), 0);
        assert_eq!(ExitStatus::Failing.code(), 1);
        assert_eq!(ExitStatus::CouldNotRun.code(), 2);
        assert_eq!(ExitStatus::failing_if(true), ExitStatus::Failing);
        assert_eq!(ExitStatus::failing_if(false), ExitStatus::Success);
    }
}
