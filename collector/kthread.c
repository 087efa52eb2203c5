/* collector/kthread.c - see kthread.h. */
#include "kthread.h"
#include "../common/util.h"

#include <stdlib.h>
#include <string.h>

/* per-CPU kernel threads are pinned to the CPU in their name */
uint64_t sl_kthread_mask(const char *comm)
{
	static const char *const pinned[] = { "ksoftirqd/", "migration/", "cpuhp/", "watchdog/",
					      "idle_inject/", "rcuc/", "kworker/" };
	size_t i, l;
	for (i = 0; i < SL_ARRAY_SIZE(pinned); i++) {
		l = strlen(pinned[i]);
		if (!strncmp(comm, pinned[i], l) && comm[l] >= '0' && comm[l] <= '9') {
			long cpu = strtol(comm + l, NULL, 10);
			if (cpu < 64 && (i != 6 || strchr(comm + l, ':')))
				return 1ULL << cpu;
		}
	}
	return 0;
}

/* A kernel thread: forked by kthreadd (every kthread_create() is carried
 * out by kthreadd, tid 2: kernel/kthread.c, kthreadd()), or, for a thread
 * whose fork the trace did not see, named as the kernel names its threads:
 * a '/' (per-CPU and per-device threads: ksoftirqd/0, jbd2/sda1-8, irq/9-acpi)
 * or one of the fixed names of mm/, kernel/ and block/ (kswapd0,
 * kcompactd0, kdamond.0, khugepaged, ...), or of drivers seen in phone
 * traces: the cpufreq interactive governor's kinteractiveup and
 * kinteractive_lo (drivers/cpufreq/cpufreq_interactive.c, Android 3.x
 * kernels), sync_supers (mm/backing-dev.c, 2.6.26 to 3.5) and the
 * Broadcom dhd Wi-Fi driver's dhd_dpc and dhd_watchdog. */
int sl_is_kthread(int32_t tid, int forked_by_kthreadd, const char *comm)
{
	static const char *const names[] = { "kworker", "rcu_", "kthreadd", "kswapd", "kcompactd",
					     "kdamond", "khugepaged", "ksmd", "kauditd", "khungtaskd",
					     "oom_reaper", "kthrotld", "kdevtmpfs", "kintegrityd",
					     "kblockd", "kstrp", "watchdogd", "psimon", "hwrng",
					     "kpsmoused", "writeback", "ecryptfs-kthread", "scsi_eh_",
					     "scsi_tmf_", "card0-crtc", "kinteractive", "sync_supers",
					     "dhd_dpc", "dhd_watchdog" };
	size_t i;
	if (tid == 2 || forked_by_kthreadd || strchr(comm, '/'))
		return 1;
	for (i = 0; i < SL_ARRAY_SIZE(names); i++)
		if (!strncmp(comm, names[i], strlen(names[i])))
			return 1;
	return 0;
}
