"""test_shell.py: the shell's line editing, parsing and built-in commands, over the serial port."""
import re


def test_help_lists_every_command_once_per_line(kernel):
    out = kernel.run("help")
    names = [line.split()[0] for line in out.strip().split("\n")]
    for cmd in ["help", "echo", "dmesg", "meminfo", "poweroff", "reboot", "lsmod", "modprobe", "rmmod"]:
        assert cmd in names, out
    assert len(names) == len(set(names))


def test_unknown_command(kernel):
    assert kernel.run("frobnicate now").strip() == "frobnicate: command not found"


def test_echo_joins_words_and_honours_quotes(kernel):
    assert kernel.run('echo hello   "a  b" \'c "d"\' e\\ f').strip() == 'hello a  b c "d" e f'


def test_syntax_errors_are_reported(kernel):
    assert "unterminated quoted string" in kernel.run('echo "abc')
    assert "unexpected token `newline'" in kernel.run("echo abc >")
    assert "too many arguments" in kernel.run("echo " + " ".join(["x"] * 40))
    assert kernel.run("echo still here").strip() == "still here"


def test_a_list_runs_each_command_in_turn(kernel):
    """';' separates commands, as in sh: each runs, a failure does not stop the next, a
    syntax error anywhere runs none of them, and a quoted or escaped ';' is a character."""
    assert kernel.run("echo one > /tmp/list; echo two >> /tmp/list;cat /tmp/list") == "one\ntwo\n"
    assert kernel.run("nosuch; echo after;") == "nosuch: command not found\nafter\n"
    for bad in ("; echo x", "echo a;; echo b", "echo a >; echo b"):
        assert kernel.run(bad) == "kobold: syntax error near unexpected token `;'\n", bad
    assert kernel.run('echo ran > /tmp/list; echo "oops') == \
        "kobold: syntax error: unterminated quoted string\n"
    assert kernel.run("cat /tmp/list") == "one\ntwo\n"  # the first command did not run
    assert kernel.run('echo "a;b" c\\;d') == "a;b c;d\n"
    assert "list" not in kernel.run("rm /tmp/list; ls /tmp").split()


def test_pipes_input_redirection_and_jobs_are_refused(kernel):
    """The shell has no '|', '<' or '&': typed unquoted, each is a syntax error that runs
    nothing, not a character passed on to the command; quoted, each is a character."""
    assert kernel.run("dmesg | grep sbd") == \
        "kobold: syntax error: no pipes (`|'); quote it to mean the character\n"
    assert kernel.run("cat < /tmp/x") == \
        "kobold: syntax error: no input redirection (`<'); quote it to mean the character\n"
    assert kernel.run("echo made > /tmp/job &") == \
        "kobold: syntax error: no background jobs (`&'); quote it to mean the character\n"
    assert "job" not in kernel.run("ls /tmp")
    assert kernel.run("echo 'a|b' \"c<d\" e\\&f") == "a|b c<d e&f\n"


def test_redirect_to_missing_file_fails_cleanly(kernel):
    out = kernel.run("echo 1 > /nonexistent/file")
    assert "/nonexistent/file: No such file or directory" in out


def test_backspace_and_ctrl_u_edit_the_line(kernel):
    kernel.send("echo abcX\x7f\x7fd\r")
    kernel.wait_prompt()
    assert kernel.output().split("\n")[-2] == "abd"
    kernel.send("garbage words\x15echo clean\r")
    kernel.wait_prompt()
    assert "clean" in kernel.child.before
    assert "command not found" not in kernel.child.before


def test_ctrl_c_drops_the_line(kernel):
    kernel.send("echo never\x03")
    kernel.wait_prompt()
    assert "^C" in kernel.child.before
    assert kernel.run("echo after").strip() == "after"


def test_history_up_and_down(kernel):
    for word in ["one", "two", "three"]:
        kernel.run("echo " + word)
    kernel.send("\x1b[A\x1b[A\r")  # up twice: "echo two"
    kernel.wait_prompt()
    assert kernel.output().rstrip("\n").split("\n")[-1] == "two"
    # now: one, two, three, two. Up x3 reaches "echo two" (the older), down: "echo three"
    kernel.send("\x1b[A\x1b[A\x1b[A\x1b[B\r")
    kernel.wait_prompt()
    assert kernel.output().rstrip("\n").split("\n")[-1] == "three"
    kernel.send("\x1b[A\x1b[B\r")  # up then down: back to the empty new line
    kernel.wait_prompt()
    assert "command not found" not in kernel.output()


def test_tab_completes_command_names(kernel):
    kernel.send("mem\t")
    kernel.expect("meminfo ")
    kernel.send("\r")
    kernel.wait_prompt()
    assert "BytesInUse:" in kernel.child.before


def test_tab_twice_lists_candidates(kernel):
    kernel.send("re\t\t")
    kernel.expect("reboot")
    kernel.send("\x15\r")
    kernel.wait_prompt()


def test_very_long_line_is_refused_and_the_shell_survives(kernel):
    kernel.send("echo " + "y" * 3000 + "\r")
    kernel.expect("line too long")
    kernel.wait_prompt()
    assert kernel.run("echo ok").strip() == "ok"


def test_binary_and_control_bytes_are_ignored(kernel):
    kernel.send("echo \x01\x02\x7f\x80\xff\x1b[5~\x1bOPz\x00ok\r")
    kernel.wait_prompt()
    assert kernel.run("echo alive").strip() == "alive"


def test_dmesg_has_timestamps(kernel):
    lines = kernel.run("dmesg").strip().split("\n")
    assert lines
    assert all(re.match(r"\[\s*\d+\.\d{6}\] ", l) for l in lines), lines


def test_meminfo_reports_counters(kernel):
    out = kernel.run("meminfo")
    fields = dict(re.findall(r"^(\w+):\s+(\d+)$", out, re.M))
    for key in ["BytesInUse", "ObjectsInUse", "PeakBytes", "Failures", "PagesTotal", "PagesFree"]:
        assert key in fields, out
    assert int(fields["PeakBytes"]) >= int(fields["BytesInUse"]) > 0
    verbose = kernel.run("meminfo -v")
    assert re.search(r"^\s+\d+\s+\d+\s+\w+\+0x[0-9a-f]+/0x[0-9a-f]+$", verbose, re.M), verbose
    assert "usage: meminfo [-v]" in kernel.run("meminfo -x")


def test_modprobe_and_rmmod_errors_match_kmod(kernel):
    assert kernel.run("modprobe nosuch").strip() == "modprobe: FATAL: Module nosuch not found."
    assert kernel.run("rmmod nosuch").strip() == "rmmod: ERROR: Module nosuch is not currently loaded"
    assert kernel.run("lsmod").startswith("Module                  Size  Used by")


def test_ctrl_w_erases_the_word_before_the_cursor(kernel):
    # "three" goes, then "two" and the blanks after it, as a tty's WERASE does
    kernel.send("echo one two  three\x17\x17X\r")
    kernel.wait_prompt()
    assert kernel.output().split("\n")[-2] == "one X"
    kernel.send("\x17\x17\x17echo alone\r")  # on an empty line: nothing happens
    kernel.wait_prompt()
    assert kernel.output().split("\n")[-2] == "alone"


def test_help_is_sorted_in_columns_that_never_touch(kernel):
    lines = kernel.run("help").rstrip("\n").split("\n")
    rows = [re.match(r"^  (\S+)( {2,})\S", l) for l in lines]
    assert all(rows), lines
    names = [m.group(1) for m in rows]
    assert names == sorted(names), names
    for cmd in ["exit", "quit", "logout", "clear", "history", "help"]:
        assert cmd in names
    assert len({m.end() for m in rows}) == 1, lines  # one column for every description


def test_help_cmd_prints_usage_and_what_it_does(kernel):
    out = kernel.run("help tree").rstrip("\n").split("\n")
    assert out[0] == "tree: tree [-a] [PATH]", out
    assert len(out) >= 3 and all(l.startswith("    ") for l in out[1:]), out
    assert "Ctrl-C" in kernel.run("help bench")
    assert kernel.run("help nosuch").strip() == "help: no help topics match `nosuch'"
    assert kernel.run("help help").startswith("help: help [CMD]")


def test_history_clear_and_the_ways_out(kernel):
    kernel.run("echo first")
    kernel.run("echo second")
    out = kernel.run("history").rstrip("\n").split("\n")
    assert [re.sub(r"^\s+\d+  ", "", l) for l in out[-3:]] == ["echo first", "echo second", "history"]
    assert re.match(r"^\s+\d+  echo first$", out[-3]), out
    assert kernel.run("clear") == "\x1b[H\x1b[2J"
    for cmd in ["exit", "quit", "logout"]:
        out = kernel.run(cmd)
        assert "poweroff" in out and "Ctrl-A X" in out, out
    assert kernel.run("echo still-here").strip() == "still-here"


def test_tree_on_a_file_or_a_missing_path_says_so_as_tree_does(kernel):
    out = kernel.run("tree /sys/class/sbd/sbd0/version")
    assert out == "/sys/class/sbd/sbd0/version  [error opening dir]\n\n0 directories, 0 files\n"
    out = kernel.run("tree /sys/nosuch")
    assert out == "/sys/nosuch  [error opening dir]\n\n0 directories, 0 files\n"
    # one directory, and 3 files or more (labs 1 and 2 add sbd's size_kb and max_sectors)
    assert re.search(r"\n1 directory, [3-9] files\n$", kernel.run("tree /sys/class/sbd"))
