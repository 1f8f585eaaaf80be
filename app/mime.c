/* mime.c - a short extension table; anything else is octet-stream. */
#include <string.h>
#include <strings.h>

#include "mime.h"

const char *mime_type(const char *path)
{
	static const struct { const char *ext, *type; } table[] = {
		{ "txt", "text/plain; charset=utf-8" },
		{ "html", "text/html; charset=utf-8" },
		{ "htm", "text/html; charset=utf-8" },
		{ "css", "text/css" },
		{ "js", "text/javascript" },
		{ "json", "application/json" },
		{ "png", "image/png" },
		{ "jpg", "image/jpeg" },
		{ "svg", "image/svg+xml" },
	};
	const char *dot = strrchr(path, '.');

	if (dot && !strchr(dot, '/'))
		for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
			if (strcasecmp(dot + 1, table[i].ext) == 0)
				return table[i].type;
	return "application/octet-stream";
}
