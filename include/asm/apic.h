/*
 * apic.h: the local APIC (Intel SDM vol. 3, ch. 10), which takes MSI and
 * MSI-X messages. The 8259 pair stays wired to its LINT0 ("virtual wire"),
 * so the legacy lines work as before.
 */
#ifndef ASM_APIC_H
#define ASM_APIC_H

#include <kobold/types.h>

#define APIC_DEFAULT_PHYS_BASE 0xfee00000u
#define MSI_ADDR_BASE 0xfee00000u /* MSI address: 0xfee, destination APIC id at bits 19:12 */
#define SPURIOUS_APIC_VECTOR 0xff
#define RESCHEDULE_VECTOR 0xfc	  /* as 2.6 i386's */
#define CALL_FUNCTION_VECTOR 0xfb /* as 2.6 i386's */
#define LOCAL_TIMER_VECTOR 0xef	  /* as 2.6 i386's */

/* Finds and enables the local APIC; false if the CPU has none (then: no MSI). */
bool apic_init(void);
bool apic_present(void);
/* An AP's APIC, on the AP itself: enabled, local sources masked. */
void apic_init_secondary(void);
/* Interprocessor messages that start an AP (Intel SDM vol. 3, 8.4.4): false if never delivered. */
bool apic_send_init(unsigned int apicid);
bool apic_send_startup(unsigned int apicid, unsigned int page);
/* A fixed interrupt on @vector to one CPU. */
bool apic_send_ipi_vector(unsigned int apicid, unsigned int vector);
unsigned int apic_id(void);
/* End of interrupt, for every vector the APIC delivered (not for the 8259's). */
void apic_eoi(void);
/*
 * The local APIC timer: calibrate_APIC_clock() counts its ticks against the
 * TSC once, on the boot CPU; setup_APIC_timer() starts it on the calling
 * CPU, periodic at HZ, on LOCAL_TIMER_VECTOR. false: no APIC, no timer.
 */
bool calibrate_APIC_clock(void);
void setup_APIC_timer(void);
/* True once the local APIC timers tick the scheduler (else the PIT does). */
extern bool apic_timer_running;
/* /sys/devices/system/lapic/lapic0, when there is a local APIC. */
int init_lapic_sysfs(void);

#endif
