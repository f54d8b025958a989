#!/usr/bin/python3
"""compile-commands.py: writes compile_commands.json (clangd, VS Code) for the kernel's sources.

usage: compile-commands.py OUT BUILD CC "CFLAGS" "MODULE_SOURCES" SOURCE...
Each entry is the command the Makefile runs for that file, with its flags.
"""
import json
import os
import shlex
import sys


def entry(root, build, cc, cflags, modules, src):
    name = os.path.splitext(os.path.basename(src))[0]
    obj = os.path.join(build, os.path.splitext(src)[0] + ".o")
    args = shlex.split(cc) + shlex.split(cflags)
    if src.endswith(".c"):
        args.append('-DKBUILD_MODNAME="%s"' % name)
        if src in modules:
            args.append("-DMODULE")
    args += ["-c", src, "-o", obj]
    return {"directory": root, "file": os.path.join(root, src), "arguments": args, "output": obj}


def main(argv):
    out, build, cc, cflags, srcs = argv[1], argv[2], argv[3], argv[4], argv[6:]
    modules = set(argv[5].split())
    root = os.getcwd()
    db = [entry(root, build, cc, cflags, modules, s) for s in srcs]
    text = json.dumps(db, indent=1) + "\n"
    old = open(out).read() if os.path.exists(out) else None
    if text != old:
        with open(out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main(sys.argv)
