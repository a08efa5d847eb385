//! Standard output as the commands write it: buffered, and written while
//! a report is rendered, so a large JSON document (tens of megabytes for
//! `check --all-dirs` at 1,000,000 files) is never held whole in memory.

use std::io::{self, BufWriter, Write};

/// Bytes of output gathered before each write to standard output.
const BUFFER: usize = 64 * 1024;

/// Buffered standard output that keeps the first write error.
///
/// A command renders into it with [`Sink::render`] as its last step (no
/// usage error can follow a rendering, so an error message never comes
/// after part of a report); `main` ends it with [`Sink::finish`], which
/// flushes and returns that first error.
pub(crate) struct Sink {
    out: BufWriter<Box<dyn Write>>,
    error: Option<io::Error>,
}

impl Sink {
    /// Standard output.
    pub(crate) fn stdout() -> Sink {
        Sink::new(Box::new(io::stdout()))
    }

    /// Any writer (the tests' `Vec<u8>`).
    pub(crate) fn new(out: Box<dyn Write>) -> Sink {
        Sink {
            out: BufWriter::with_capacity(BUFFER, out),
            error: None,
        }
    }

    /// Runs `render` on the buffered output. After a write error (say, the
    /// reader went away) nothing more is written: the error is kept for
    /// [`Sink::finish`] and later renderings are skipped.
    pub(crate) fn render(&mut self, render: impl FnOnce(&mut dyn Write) -> io::Result<()>) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = render(&mut self.out) {
            self.error = Some(e);
        }
    }

    /// Writes `text` (a short output a command returned).
    pub(crate) fn write(&mut self, text: &str) {
        if !text.is_empty() {
            self.render(|w| w.write_all(text.as_bytes()));
        }
    }

    /// Flushes the output. Errors: the first write error, or the flush's.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        match self.error.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A writer that accepts `room` bytes, then fails with `BrokenPipe`.
    struct Pipe {
        got: Arc<Mutex<Vec<u8>>>,
        room: usize,
    }

    impl Write for Pipe {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let mut got = self.got.lock().unwrap();
            if got.len() + buf.len() > self.room {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            got.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn writes_in_order_and_keeps_the_first_error() {
        let got = Arc::new(Mutex::new(Vec::new()));
        let mut sink = Sink::new(Box::new(Pipe {
            got: got.clone(),
            room: 100,
        }));
        sink.render(|w| w.write_all(b"report\n"));
        sink.write("tail\n");
        assert!(sink.finish().is_ok());
        assert_eq!(&*got.lock().unwrap(), b"report\ntail\n");

        let got = Arc::new(Mutex::new(Vec::new()));
        let mut sink = Sink::new(Box::new(Pipe {
            got: got.clone(),
            room: 10,
        }));
        // More than the buffer holds: the writer's error reaches `render`,
        // which stops; a later rendering is skipped.
        sink.render(|w| w.write_all(&vec![b'x'; 2 * BUFFER]));
        let mut ran = false;
        sink.render(|_| {
            ran = true;
            Ok(())
        });
        assert!(!ran);
        assert_eq!(sink.finish().unwrap_err().kind(), io::ErrorKind::BrokenPipe);
    }
}
