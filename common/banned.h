/* common/banned.h - functions we never call (included into every file by
 * the Makefile). Use snprintf, memcpy with explicit lengths, sl_copy_comm. */
#ifndef SL_BANNED_H
#define SL_BANNED_H
#define strcpy(a, b) sl_banned_strcpy_use_snprintf
#define strcat(a, b) sl_banned_strcat_use_snprintf
#define sprintf(...) sl_banned_sprintf_use_snprintf
#define vsprintf(...) sl_banned_vsprintf_use_vsnprintf
#define gets(a) sl_banned_gets
#endif
