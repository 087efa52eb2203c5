/* collector/child_report.h - where a sanitizer build's reader child leaves
 * its report. The trace.dat reader runs libtracecmd in a forked child whose
 * stdout and stderr go to /dev/null (libtracecmd prints complaints whatever
 * its log level), so a crash there under ASan or UBSan (make SANITIZE=...,
 * which defines SL_SANITIZE) would leave no trace: the child writes its
 * report to SL_CHILD_REPORT.PID instead, and the parent's one-line error
 * names that file. Ordinary builds: nothing. */
#ifndef SL_CHILD_REPORT_H
#define SL_CHILD_REPORT_H

#include <stdio.h>
#include <sys/types.h>

#ifdef SL_SANITIZE
#include <sanitizer/common_interface_defs.h>
#define SL_CHILD_REPORT "/tmp/schedlab-reader"
static inline void child_report_setup(void)
{
	__sanitizer_set_report_path(SL_CHILD_REPORT);
}
/* " (sanitizer report, if any: PATH.pid)" for the parent's error */
static inline const char *child_report(pid_t pid)
{
	static char buf[96];
	snprintf(buf, sizeof(buf), " (sanitizer report, if any: %s.%ld)", SL_CHILD_REPORT, (long)pid);
	return buf;
}
#else
static inline void child_report_setup(void)
{
}
static inline const char *child_report(pid_t pid)
{
	(void)pid;
	return "";
}
#endif

#endif
