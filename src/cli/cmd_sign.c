/*
 * sign: sign a skill folder (SKILL.sha256 + SKILL.sha256.minisig, sign.h),
 * or with --verify, check folders against trust.signers.
 */
#include "autoconfig.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmd.h"
#include "core/config.h"
#include "core/sign.h"
#include "base/status.h"
#include "base/strlist.h"

static int
is_dir(const char *p)
{
	struct stat	 st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
verify(struct cmd_ctx *ctx, int argc, char **argv,
    const struct strlist *extra, int json)
{
	struct keyring		 kr;
	struct strlist		 entries;
	struct sign_result	 r;
	cJSON			*arr = NULL, *o;
	char			*cause;
	int			 i, rv = SR_OK;
	size_t			 j;

	strlist_init(&entries);
	for (j = 0; j < ctx->cfg->signers.n; j++)
		strlist_add(&entries, ctx->cfg->signers.v[j]);
	for (j = 0; j < extra->n; j++)
		strlist_add(&entries, extra->v[j]);
	if (keyring_load(&kr, &entries, &cause) != 0) {
		cmd_warn("%s", cause);
		free(cause);
		strlist_done(&entries);
		return SR_CONFIG;
	}
	strlist_done(&entries);
	if (json)
		arr = cJSON_CreateArray();
	for (i = 0; i < argc; i++) {
		if (!is_dir(argv[i])) {
			cmd_warn("sign: %s: not a skill folder", argv[i]);
			rv = SR_NOTFOUND;
			continue;
		}
		sign_check(&kr, argv[i], &r);
		if (json) {
			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "path", argv[i]);
			cJSON_AddStringToObject(o, "status",
			    sign_status_name(r.status));
			if (r.signer != NULL)
				cJSON_AddStringToObject(o, "signer", r.signer);
			if (r.keyid[0] != '\0')
				cJSON_AddStringToObject(o, "key_id", r.keyid);
			if (sign_rule(r.status) != NULL)
				cJSON_AddStringToObject(o, "rule",
				    sign_rule(r.status));
			if (r.detail != NULL)
				cJSON_AddStringToObject(o, "detail", r.detail);
			cJSON_AddItemToArray(arr, o);
		} else if (r.status == SIGN_VALID)
			printf("%s: signed by %s (key %s)\n", argv[i],
			    r.signer, r.keyid);
		else if (r.status == SIGN_NONE)
			printf("%s: not signed\n", argv[i]);
		else
			printf("%s: %s%s%s%s: %s\n", argv[i],
			    sign_rule(r.status), r.keyid[0] ? " (key " : "",
			    r.keyid, r.keyid[0] ? ")" : "",
			    r.detail != NULL ? r.detail : "");
		if (r.status != SIGN_VALID && rv == SR_OK)
			rv = SR_ERR;
		sign_result_done(&r);
	}
	if (json && cmd_print_json(arr) != SR_OK && rv == SR_OK)
		rv = SR_IO;
	keyring_done(&kr);
	return rv;
}

static int
cmd_sign(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "password-env", required_argument, NULL, 'p' },
		{ "comment", required_argument, NULL, 'c' },
		{ "verify", no_argument, NULL, 'V' },
		{ "signer", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct strlist	 extra;
	const char	*key = NULL, *pwenv = NULL, *comment = NULL;
	char		*cause = NULL, keyid[17];
	int		 ch, stop, verify_mode = 0, json = 0, i, rv;

	strlist_init(&extra);
	while ((ch = cmd_getopt("sign", argc, argv, "k:p:c:Vs:j", longopts,
	    &stop)) != -1) {
		switch (ch) {
		case 'k':
			key = optarg;
			break;
		case 'p':
			pwenv = optarg;
			break;
		case 'c':
			comment = optarg;
			break;
		case 'V':
			verify_mode = 1;
			break;
		case 's':
			strlist_add(&extra, optarg);
			break;
		case 'j':
			json = 1;
			break;
		}
	}
	if (stop != -1) {
		strlist_done(&extra);
		return stop;
	}
	argc -= optind;
	argv += optind;
	if (argc == 0) {
		strlist_done(&extra);
		return cmd_usage("sign", "give a skill folder");
	}
	if (verify_mode) {
		rv = verify(ctx, argc, argv, &extra, json);
		strlist_done(&extra);
		return rv;
	}
	strlist_done(&extra);
	if (key == NULL)
		return cmd_usage("sign", "--key FILE (a minisign secret key) "
		    "is needed to sign; --verify checks instead");
	if (json)
		return cmd_usage("sign", "--json goes with --verify");
	for (i = 0; i < argc; i++) {
		if (!is_dir(argv[i])) {
			cmd_warn("sign: %s: not a skill folder", argv[i]);
			return SR_NOTFOUND;
		}
		if ((rv = sign_dir(argv[i], key, pwenv, comment, keyid,
		    &cause)) != SR_OK) {
			cmd_warn("sign: %s", cause);
			free(cause);
			return rv;
		}
		printf("%s: signed with key %s (%s, %s)\n", argv[i], keyid,
		    SIGN_MANIFEST, SIGN_SIGNATURE);
	}
	return SR_OK;
}

const struct cmd_entry cmd_sign_entry = {
	"sign", cmd_sign, CMD_NEEDS_CONFIG,
	"--key FILE [--password-env VAR] [--comment TEXT] DIR... | "
	"--verify [--signer NAME=KEY]... [--json] DIR...",
	"sign skill folders with a minisign key, or check signatures"
};
