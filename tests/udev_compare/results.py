"""results.py: what one `udevadm test` printed, reduced to what the rules
decided, so that systemd's output and Kobold's can be compared: the errors
reported for the file, the properties the rules set, the links, the mode and
the programs to run."""
import re

RULES = "/etc/udev/rules.d/50-test.rules"
# The kernel's keys and udev's own: not set by the rules under test.
EVENT_KEYS = {"ACTION", "DEVPATH", "SUBSYSTEM", "MAJOR", "MINOR", "DEVNAME", "DEVTYPE", "PARTN",
              "SEQNUM", "DISKSEQ", "USEC_INITIALIZED", "DEVLINKS", "PHYSDEVPATH", "PHYSDEVBUS",
              "PHYSDEVDRIVER", "DEVMODE", "TAGS", "CURRENT_TAGS", "DRIVER", "MODALIAS"}
PROPERTY = re.compile(r"^([A-Za-z0-9_.]+)=(.*)$")


def reduce(output):
    """{errors, failed, env, links, mode, run} from one udevadm test's output, with
    the device's own DEVPATH and MAJOR written as <DEVPATH> and <MAJOR>."""
    lines = output.replace("\r", "").split("\n")
    props = dict(m.groups() for m in map(PROPERTY.match, lines) if m)
    devpath, major = props.get("DEVPATH", "\0"), props.get("MAJOR", "\0")

    def norm(s):
        s = s.replace(devpath, "<DEVPATH>")
        return re.sub(r"(^|\D)%s(?=\D|$)" % re.escape(major), r"\1<MAJOR>", s)

    trace = re.compile(r"^%s:\d+ [A-Z]+(\{[^}]*\})?(=|\+=|:=)\"" % re.escape(RULES))
    failed = re.compile(r"^(?:\S+: )?(%s:\d+ Failed to .*)$" % re.escape(RULES))
    errors = [l for l in lines if (l.startswith(RULES) and not trace.match(l) and
                                   not failed.match(l)) or
              l.startswith("Failed to read rules file " + RULES)]
    failures = [norm(m.group(1)) for m in map(failed.match, lines) if m]
    env = {k: norm(v) for k, v in props.items() if k not in EVENT_KEYS}
    links = sorted(l[len("/dev/"):] for l in props.get("DEVLINKS", "").split())
    run = [norm(m.group(1)) for m in (re.match(r"^run: '(.*)'$", l) for l in lines) if m]
    modes = [m.group(1) for m in (re.search(r"%s:\d+ MODE[ =:\"]+(0?[0-7]+)" % RULES, l)
                                  for l in lines) if m]
    return {"errors": errors, "failed": failures, "env": env, "links": links,
            "mode": modes[-1].rjust(4, "0") if modes else None, "run": run}


def differences(linux, kobold):
    """The fields where two reduced results differ: {field: (linux, kobold)}."""
    return {f: (linux[f], kobold[f]) for f in linux if linux[f] != kobold[f]}
