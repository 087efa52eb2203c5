/* common/sha256.c - the sha256 of a trace file or of a perf.data
 * directory (libcrypto's EVP digest), for the store's duplicate check. */
#include "sha256.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The file's bytes into ctx: a regular file through mmap'd windows of
 * 8 MB, each unmapped once digested, so that hashing a 1 GB trace does not
 * hold 1 GB of it resident; anything else through read(). */
static int sha_feed(EVP_MD_CTX *ctx, int fd)
{
	enum { WIN = 8 << 20 };
	unsigned char buf[1 << 16];
	struct stat sb;
	ssize_t n;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0) {
		off_t off = 0;
		while (off < sb.st_size) {
			size_t len = sb.st_size - off < WIN ? (size_t)(sb.st_size - off) : WIN;
			void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, off);
			int ok;
			if (map == MAP_FAILED)
				break; /* read() the rest */
			madvise(map, len, MADV_SEQUENTIAL);
			ok = EVP_DigestUpdate(ctx, map, len);
			munmap(map, len);
			if (!ok)
				return 0;
			off += (off_t)len;
		}
		if (off == sb.st_size)
			return 1;
		if (lseek(fd, off, SEEK_SET) != off)
			return 0;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || !EVP_DigestUpdate(ctx, buf, (size_t)n))
			return 0;
	}
	return 1;
}

static int not_dot(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* A directory (a perf.data directory): each regular file in name order,
 * its name and a NUL, then its bytes. */
static int sha_dir(EVP_MD_CTX *ctx, const char *path)
{
	struct dirent **ents = NULL;
	int n = scandir(path, &ents, not_dot, alphasort), i, ok = n >= 0;
	for (i = 0; i < n; i++) {
		size_t l = strlen(path) + strlen(ents[i]->d_name) + 2;
		char *f = xmalloc(l);
		struct stat sb;
		int fd;
		snprintf(f, l, "%s/%s", path, ents[i]->d_name);
		if (ok && stat(f, &sb) == 0 && S_ISREG(sb.st_mode)) {
			fd = open(f, O_RDONLY | O_CLOEXEC);
			ok = fd >= 0 && EVP_DigestUpdate(ctx, ents[i]->d_name, strlen(ents[i]->d_name) + 1) &&
			     sha_feed(ctx, fd);
			if (fd >= 0)
				close(fd);
		}
		free(f);
		free(ents[i]);
	}
	free(ents);
	return ok;
}

int sl_sha256_file(const char *path, char out[65], struct sl_diag *d)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;
	EVP_MD_CTX *ctx;
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok = 1;
	if (fd < 0)
		return sl_fail(d, "%s: %s", path, strerror(errno));
	ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		ok = 0;
	if (ok && fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode))
		ok = sha_dir(ctx, path);
	else if (ok)
		ok = sha_feed(ctx, fd);
	if (ok)
		ok = EVP_DigestFinal_ex(ctx, md, &mdlen);
	EVP_MD_CTX_free(ctx);
	close(fd);
	if (!ok || mdlen != 32)
		return sl_fail(d, "%s: cannot compute sha256 (read error)", path);
	for (i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	return 0;
}
