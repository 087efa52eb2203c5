/* common/sha256.h - sha256 of a file as 64 hex characters. */
#ifndef SL_SHA256_H
#define SL_SHA256_H

#include "util.h"

/* sha256 of the file at path (a directory: each regular file in name
 * order, its name and a NUL, then its bytes) as 64 hex chars and a NUL. */
int sl_sha256_file(const char *path, char out[65], struct sl_diag *d);

#endif
