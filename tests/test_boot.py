"""test_boot.py: booting with -kernel and through GRUB, the oops, poweroff and exit codes."""
import re

import kobold


def test_boot_reaches_prompt_and_reports_boot_time(kernel):
    log = kernel.run("dmesg")
    assert "Kobold" in log
    m = re.search(r"Boot to the prompt took (\d+) us", log)
    assert m, log
    assert int(m.group(1)) > 0


def test_poweroff_exits_qemu_with_zero(kernel):
    kernel.send("poweroff\r")
    status = kernel.wait_exit()
    assert status == 0
    assert "reboot: Power down" in kernel.transcript()


def test_grub_iso_boots_to_prompt_and_powers_off():
    k = kobold.boot(grub=True)
    try:
        out = k.run("dmesg")
        assert "Boot loader: GRUB" in out
        k.send("poweroff\r")
        assert k.wait_exit() == 0
    finally:
        k.close()


def test_null_dereference_oopses_with_symbolized_backtrace():
    status, text = kobold.run_to_exit("lkdtm.crash=NULL_DEREF")
    assert status == kobold.EXIT_FAILURE
    assert "BUG: kernel NULL pointer dereference, address: 00000004" in text
    assert re.search(r"EIP: lkdtm_do_null_deref\+0x[0-9a-f]+/0x[0-9a-f]+", text), text
    trace = text[text.index("Call Trace:"):]
    assert re.search(r"\[<[0-9a-f]{8}>\] lkdtm_run\+0x[0-9a-f]+/0x[0-9a-f]+", trace), trace
    assert re.search(r"\[<[0-9a-f]{8}>\] kmain\+0x", trace), trace
    assert re.search(r"EAX: [0-9a-f]{8} EBX: [0-9a-f]{8}", text)
    assert "PANIC: Kernel panic - not syncing: Fatal exception" in text


def test_user_space_addresses_are_not_mapped():
    """The low identity map is gone after boot: 1 MiB, where the kernel is loaded, faults."""
    status, text = kobold.run_to_exit("lkdtm.crash=ACCESS_USERSPACE")
    assert status == kobold.EXIT_FAILURE
    assert "lkdtm: attempting bad read at 0x100000" in text, text
    assert "BUG: unable to handle page fault for address: 00100000" in text, text
    assert "lkdtm: read" not in text, text
    assert re.search(r"EIP: lkdtm_ACCESS_USERSPACE\+0x", text), text


def test_panic_is_never_a_pass():
    """A wrong magic (no multiboot loader) panics; QEMU reports the failure code."""
    status, text = kobold.run_to_exit("lkdtm.crash=NULL_DEREF loglevel=0")
    assert status == kobold.EXIT_FAILURE
    assert status != 0 and status != kobold.EXIT_SUCCESS


def test_loglevel_silences_the_console(boot_with):
    k = boot_with("loglevel=1")
    assert "Boot to the prompt" not in k.transcript()
    assert "Boot to the prompt" in k.run("dmesg")


def test_unknown_boot_option_is_reported(boot_with):
    k = boot_with("frobnicate=3 loglevel=x")
    log = k.run("dmesg")
    assert 'Unknown kernel command line parameter "frobnicate=3"' in log
    assert 'loglevel=x: bad value' in log or 'loglevel: bad value "x"' in log
