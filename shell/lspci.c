/* lspci.c: the shell's `lspci`, printing each function as `lspci -n` does. */
#include <kobold/pci.h>
#include <kobold/shell.h>

/* lspci sorts by bus first; a depth-first walk would put bus 1 inside bus 0. */
static void print_function(struct pci_dev *pdev, void *arg)
{
	if (!pdev->is_added || pdev->bus->number != *(unsigned int *)arg)
		return;
	sh_printf("%02x:%02x.%u %04x: %04x:%04x", pdev->bus->number, PCI_SLOT(pdev->devfn),
		  PCI_FUNC(pdev->devfn), pdev->class >> 8, pdev->vendor, pdev->device);
	if (pdev->revision)
		sh_printf(" (rev %02x)", pdev->revision);
	sh_printf("\n");
}

static int cmd_lspci(int argc, char **argv)
{
	if (argc > 1 && !(argc == 2 && argv[1][0] == '-' && argv[1][1] == 'n' && !argv[1][2])) {
		sh_err("lspci: usage: lspci [-n]\n");
		return 1;
	}
	for (unsigned int bus = 0; bus < 256; bus++)
		pci_for_each_dev(print_function, &bus);
	return 0;
}
SHELL_COMMAND("lspci", "[-n]", "list PCI functions: BB:DD.F CLASS: VENDOR:DEVICE", cmd_lspci);
