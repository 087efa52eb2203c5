/* plots/html.c - escaping and base64 for the report. */
#include "plot.h"

void sl_html_str(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* control characters never reach the page */
			if (c < 0x20 && c != '\n' && c != '\t')
				fputc('?', f);
			else
				fputc(c, f);
		}
	}
}

void sl_base64_write(FILE *f, const unsigned char *buf, size_t n)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;
	for (i = 0; i + 2 < n; i += 3) {
		unsigned v = (unsigned)buf[i] << 16 | (unsigned)buf[i + 1] << 8 | buf[i + 2];
		fputc(tab[v >> 18], f);
		fputc(tab[(v >> 12) & 63], f);
		fputc(tab[(v >> 6) & 63], f);
		fputc(tab[v & 63], f);
	}
	if (n - i == 1) {
		unsigned v = (unsigned)buf[i] << 16;
		fputc(tab[v >> 18], f);
		fputc(tab[(v >> 12) & 63], f);
		fputs("==", f);
	} else if (n - i == 2) {
		unsigned v = (unsigned)buf[i] << 16 | (unsigned)buf[i + 1] << 8;
		fputc(tab[v >> 18], f);
		fputc(tab[(v >> 12) & 63], f);
		fputc(tab[(v >> 6) & 63], f);
		fputc('=', f);
	}
}
