/*
 * signal_frame.c: a handler's frame on the user stack, laid out as Linux
 * i386's (arch/x86/include/asm/sigframe.h, uapi/asm/sigcontext.h): struct
 * sigframe for a plain handler, struct rt_sigframe with siginfo and
 * ucontext for SA_SIGINFO. The handler returns into its sa_restorer (glibc
 * always gives one), which calls sigreturn or rt_sigreturn; they put the
 * saved registers, mask and FPU state back.
 */
#include <asm/desc.h>
#include <asm/ptrace.h>
#include <kobold/errno.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/uaccess.h>

#define FIX_EFLAGS 0x40dd5 /* AC OF DF TF SF ZF AF PF CF: what a handler may change */
#define FPSTATE_SIZE 512

struct sigcontext {
	u32 gs, fs, es, ds;
	u32 edi, esi, ebp, esp, ebx, edx, ecx, eax;
	u32 trapno, err, eip, cs, eflags, esp_at_signal, ss;
	u32 fpstate; /* user address of the fxsave image, or 0 */
	u32 oldmask, cr2;
};

struct sigframe {
	u32 pretcode;
	int sig;
	struct sigcontext sc;
	u8 fpstate_unused[624]; /* struct _fpstate_32: the legacy FPU image, unused */
	u32 extramask[1];
	char retcode[8];
	u8 fpstate[FPSTATE_SIZE + 16]; /* "fp state follows here": fxsave, 16-aligned */
};

struct ucontext {
	u32 uc_flags, uc_link;
	u32 ss_sp, ss_flags, ss_size;
	struct sigcontext uc_mcontext;
	u64 uc_sigmask;
};

struct rt_sigframe {
	u32 pretcode;
	int sig;
	u32 pinfo, puc;
	struct {
		int si_signo, si_errno, si_code;
		int pad[29];
	} info; /* siginfo_t: 128 bytes */
	struct ucontext uc;
	char retcode[8];
	u8 fpstate[FPSTATE_SIZE + 16];
};

static u8 fx_buf[FPSTATE_SIZE] __attribute__((aligned(16)));

static void save_sigcontext(struct sigcontext *sc, const struct pt_regs *r, u32 oldmask, u32 fp)
{
	memset(sc, 0, sizeof(*sc));
	sc->gs = r->gs & 0xffff;
	sc->fs = r->fs & 0xffff;
	sc->es = r->es & 0xffff;
	sc->ds = r->ds & 0xffff;
	sc->edi = r->edi;
	sc->esi = r->esi;
	sc->ebp = r->ebp;
	sc->esp = sc->esp_at_signal = r->esp;
	sc->ebx = r->ebx;
	sc->edx = r->edx;
	sc->ecx = r->ecx;
	sc->eax = r->eax;
	sc->trapno = r->vector;
	sc->err = r->error_code;
	sc->eip = r->eip;
	sc->cs = r->cs & 0xffff;
	sc->eflags = r->eflags;
	sc->ss = r->ss & 0xffff;
	sc->fpstate = fp;
	sc->oldmask = oldmask;
}

/* A data selector user space may hold: null, the user data segment, or a TLS slot. */
static u32 user_selector(u32 sel)
{
	u32 idx = (sel & 0xffff) >> 3;

	if ((sel & 0xffff) == 0 || (sel & 0xffff) == __USER_DS)
		return sel & 0xffff;
	if ((sel & 3) == 3 && !(sel & 4) && idx >= GDT_ENTRY_TLS_MIN && idx <= GDT_ENTRY_TLS_MAX)
		return sel & 0xffff;
	return 0;
}

static void restore_sigcontext(struct pt_regs *r, const struct sigcontext *sc)
{
	r->gs = user_selector(sc->gs);
	r->fs = user_selector(sc->fs);
	r->es = r->ds = __USER_DS;
	r->edi = sc->edi;
	r->esi = sc->esi;
	r->ebp = sc->ebp;
	r->esp = sc->esp;
	r->ebx = sc->ebx;
	r->edx = sc->edx;
	r->ecx = sc->ecx;
	r->eax = sc->eax;
	r->eip = sc->eip;
	r->cs = __USER_CS;
	r->ss = __USER_DS;
	r->eflags = (r->eflags & ~FIX_EFLAGS) | (sc->eflags & FIX_EFLAGS);
	r->vector = 0;
}

static u32 save_fpu(u32 frame_fp)
{
	u32 fp = ALIGN_UP(frame_fp, 16);

	__asm__ volatile("fxsave (%0)" : : "r"(fx_buf) : "memory");
	return copy_to_user((void __user *)fp, fx_buf, FPSTATE_SIZE) ? 0 : fp;
}

static void restore_fpu(u32 fp)
{
	if (!fp || copy_from_user(fx_buf, (const void __user *)fp, FPSTATE_SIZE))
		return;
	*(u32 *)(fx_buf + 24) &= 0xffff; /* MXCSR's reserved bits would fault fxrstor */
	__asm__ volatile("fxrstor (%0)" : : "r"(fx_buf) : "memory");
}

/* Linux's: the frame below the stack pointer, so that the handler finds ((sp + 4) & 15) == 0. */
static u32 frame_address(const struct pt_regs *regs, size_t size)
{
	u32 sp = regs->esp - (u32)size;

	return ((sp + 4) & ~15u) - 4;
}

static int setup_frame(int sig, struct k_sigaction *ka, u64 oldmask, struct pt_regs *regs)
{
	struct sigframe f;
	u32 addr = frame_address(regs, sizeof(f));
	struct sigframe __user *uf = (void __user *)addr;
	u32 fp;

	memset(&f, 0, sizeof(f));
	if (!access_ok(uf, sizeof(f)))
		return -EFAULT;
	fp = save_fpu(addr + offsetof(struct sigframe, fpstate));
	f.pretcode = ka->restorer;
	f.sig = sig;
	save_sigcontext(&f.sc, regs, (u32)oldmask, fp);
	f.extramask[0] = (u32)(oldmask >> 32);
	if (copy_to_user(uf, &f, offsetof(struct sigframe, fpstate)))
		return -EFAULT;
	regs->eax = (u32)sig; /* regparm(3) handlers take it there too */
	regs->edx = regs->ecx = 0;
	return 0;
}

static int setup_rt_frame(int sig, struct k_sigaction *ka, u64 oldmask, struct pt_regs *regs)
{
	struct rt_sigframe f;
	u32 addr = frame_address(regs, sizeof(f));
	struct rt_sigframe __user *uf = (void __user *)addr;
	u32 fp;

	memset(&f, 0, sizeof(f));
	if (!access_ok(uf, sizeof(f)))
		return -EFAULT;
	fp = save_fpu(addr + offsetof(struct rt_sigframe, fpstate));
	f.pretcode = ka->restorer;
	f.sig = sig;
	f.pinfo = addr + offsetof(struct rt_sigframe, info);
	f.puc = addr + offsetof(struct rt_sigframe, uc);
	f.info.si_signo = sig; /* si_code SI_USER (0) */
	save_sigcontext(&f.uc.uc_mcontext, regs, (u32)oldmask, fp);
	f.uc.ss_flags = 2; /* SS_DISABLE: no sigaltstack */
	f.uc.uc_sigmask = oldmask;
	if (copy_to_user(uf, &f, offsetof(struct rt_sigframe, fpstate)))
		return -EFAULT;
	regs->eax = (u32)sig;
	regs->edx = f.pinfo;
	regs->ecx = f.puc;
	return 0;
}

int setup_signal_frame(int sig, struct k_sigaction *ka, u64 oldmask, struct pt_regs *regs)
{
	int err;

	if (!(ka->flags & SA_RESTORER))
		return -EFAULT; /* no way back: Linux i386 would use the vDSO's */
	err = ka->flags & SA_SIGINFO ? setup_rt_frame(sig, ka, oldmask, regs)
				     : setup_frame(sig, ka, oldmask, regs);
	if (err)
		return err;
	regs->esp = frame_address(regs, ka->flags & SA_SIGINFO ? sizeof(struct rt_sigframe)
							       : sizeof(struct sigframe));
	regs->eip = (u32)ka->handler;
	regs->ds = regs->es = __USER_DS;
	regs->cs = __USER_CS;
	regs->ss = __USER_DS;
	regs->eflags &= ~0x100u; /* TF */
	return 0;
}

static void set_mask(u64 mask)
{
	current->user.blocked = mask & ~(sigmask(SIGKILL) | sigmask(SIGSTOP));
}

/* The restorer popped the signal number: the frame starts 8 bytes below. */
long sys_sigreturn(void)
{
	struct pt_regs *regs = task_pt_regs(current);
	struct sigframe f;

	if (copy_from_user(&f, (const void __user *)(regs->esp - 8),
			   offsetof(struct sigframe, fpstate))) {
		force_sig(SIGSEGV, current);
		return 0;
	}
	set_mask(f.sc.oldmask | ((u64)f.extramask[0] << 32));
	restore_sigcontext(regs, &f.sc);
	current->user.orig_eax = -1; /* eax is the interrupted code's: no restart */
	restore_fpu(f.sc.fpstate);
	return (long)regs->eax;
}

long sys_rt_sigreturn(void)
{
	struct pt_regs *regs = task_pt_regs(current);
	struct rt_sigframe f;

	if (copy_from_user(&f, (const void __user *)(regs->esp - 4),
			   offsetof(struct rt_sigframe, fpstate))) {
		force_sig(SIGSEGV, current);
		return 0;
	}
	set_mask(f.uc.uc_sigmask);
	restore_sigcontext(regs, &f.uc.uc_mcontext);
	current->user.orig_eax = -1; /* eax is the interrupted code's: no restart */
	restore_fpu(f.uc.uc_mcontext.fpstate);
	return (long)regs->eax;
}
