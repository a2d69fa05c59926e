//! Output into a pipe closed early: no panic.

use super::*;

/// Runs `args` with stdout on a pipe whose reader goes away after `keep` bytes at most (0: at
/// once, before the child can write), like `push-rummy … | head -c KEEP`. Returns the exit code
/// and stderr.
fn run_into_closed_pipe(args: &[&str], keep: usize) -> (i32, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(ROOT)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    if keep > 0 {
        let mut first = Vec::new();
        BufReader::new(stdout)
            .take(keep as u64)
            .read_until(b'\n', &mut first)
            .unwrap();
        assert!(!first.is_empty(), "{args:?} printed nothing");
    } else {
        drop(stdout);
    }
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    (status.code().unwrap_or(-1), stderr)
}

#[test]
fn a_closed_pipe_does_not_panic() {
    // `--json meld JK JK JK JK 2S 2H` prints about 700 kB, far more than a pipe holds, so the
    // writes surely meet the closed pipe.
    let big = ["--json", "meld", "JK", "JK", "JK", "JK", "2S", "2H"];
    let cases: [(&[&str], i32); 7] = [
        (&big, 0),
        (&["meld", "JK", "JK", "JK", "JK", "2S", "2H"], 0),
        (&["rules", "show"], 0),
        (&["--json", "rules", "show"], 0),
        (&["rules", "list"], 0),
        (&["--help"], 0),
        (&["--json", "meld", "XX"], 2),
    ];
    for (args, code) in cases {
        for keep in [0, 1, 100] {
            let (got, stderr) = run_into_closed_pipe(args, keep);
            assert!(
                !stderr.contains("panicked"),
                "{args:?} keep {keep}: {stderr}"
            );
            assert_eq!(got, code, "{args:?} keep {keep}: {stderr}");
        }
    }
}
