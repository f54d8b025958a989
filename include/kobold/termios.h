/*
 * termios.h: a terminal's settings as Linux's i386 ABI lays them out
 * (asm-i386/termbits.h, ioctls.h): struct termios, struct winsize, their
 * flag bits and the tty ioctl numbers, so a static i386 binary's
 * tcgetattr/tcsetattr reach n_tty unchanged.
 */
#ifndef KOBOLD_TERMIOS_H
#define KOBOLD_TERMIOS_H

#include <kobold/types.h>

typedef unsigned char cc_t;
typedef unsigned int tcflag_t;

#define NCCS 19
struct termios {
	tcflag_t c_iflag; /* input modes */
	tcflag_t c_oflag; /* output modes */
	tcflag_t c_cflag; /* control modes */
	tcflag_t c_lflag; /* local modes */
	cc_t c_line;	  /* line discipline: 0 is N_TTY */
	cc_t c_cc[NCCS];  /* control characters */
};

struct winsize {
	unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel;
};

/* c_cc indices */
#define VINTR 0
#define VQUIT 1
#define VERASE 2
#define VKILL 3
#define VEOF 4
#define VTIME 5
#define VMIN 6
#define VSWTC 7
#define VSTART 8
#define VSTOP 9
#define VSUSP 10
#define VEOL 11
#define VREPRINT 12
#define VDISCARD 13
#define VWERASE 14
#define VLNEXT 15
#define VEOL2 16

/* c_iflag */
#define IGNBRK 0000001
#define BRKINT 0000002
#define IGNPAR 0000004
#define ISTRIP 0000040
#define INLCR 0000100
#define IGNCR 0000200
#define ICRNL 0000400
#define IXON 0002000
#define IMAXBEL 0020000

/* c_oflag */
#define OPOST 0000001
#define ONLCR 0000004

/* c_cflag */
#define B38400 0000017
#define CS8 0000060
#define CREAD 0000200
#define HUPCL 0002000
#define CLOCAL 0004000

/* c_lflag */
#define ISIG 0000001
#define ICANON 0000002
#define ECHO 0000010
#define ECHOE 0000020
#define ECHOK 0000040
#define ECHONL 0000100
#define NOFLSH 0000200
#define TOSTOP 0000400
#define ECHOCTL 0001000
#define ECHOKE 0004000
#define IEXTEN 0100000

/* ioctls (asm-i386/ioctls.h) */
#define TCGETS 0x5401
#define TCSETS 0x5402
#define TCSETSW 0x5403
#define TCSETSF 0x5404
#define TIOCSCTTY 0x540E
#define TIOCGPGRP 0x540F
#define TIOCSPGRP 0x5410
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define FIONREAD 0x541B

/* Signals a terminal sends (Linux i386 numbers), unless <kobold/signal.h> has them. */
#ifndef SIGINT
#define SIGINT 2
#endif
#ifndef SIGQUIT
#define SIGQUIT 3
#endif
#ifndef SIGTSTP
#define SIGTSTP 20
#endif

#endif
