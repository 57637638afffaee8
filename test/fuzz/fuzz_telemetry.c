/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * fuzz_telemetry: the /mbufx/... telemetry commands with arbitrary
 * parameters, through rte_telemetry's own socket (dpdk_telemetry.v2 in the
 * runtime directory), as dpdk-telemetry.py or a monitoring agent sends
 * them; the handlers run in the telemetry thread, as in production.
 *
 * At start the harness creates what the commands report on (a zone set
 * over the mbufx driver, so zone sets and driver pools exist), connects and
 * reads the command list ("/"): every command under /mbufx/ is a target,
 * so commands added later are fuzzed without touching this file.
 *
 * Input: a selector byte, then the parameter bytes.
 *   selector < 0xf0  command number selector % (number of /mbufx/ commands),
 *                    sent as "CMD,PARAM" (just "CMD" for an empty PARAM)
 *   selector >= 0xf0 the rest is sent as the whole message, unchanged
 * Every message must be answered (the connection stays usable), with one
 * JSON object for our commands, whatever the parameter.
 */

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "fuzz_common.h"
#include "mbufx.h"

#define MSG_MAX 1023		/* rte_telemetry reads 1024 bytes with the NUL */
#define REPLY_MAX (64 * 1024)
#define MAX_CMDS 32

static int sock = -1;
static char cmds[MAX_CMDS][64];
static unsigned int nb_cmds;
static char reply[REPLY_MAX];

static int
tel_connect(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };

	if (sock >= 0)
		close(sock);
	sock = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (sock < 0)
		return -errno;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	if (connect(sock, (struct sockaddr *)&sun, sizeof(sun)) < 0)
		return -errno;
	return 0;
}

/* One message of the server, NUL-terminated in reply: its length, 0 when
 * the server closed the connection, or -1 when nothing came within 20 s (a
 * hung handler; generous: a loaded machine runs fuzzers niced). libFuzzer's
 * SIGALRM (its -timeout watchdog) interrupts the waits: EINTR is retried. */
static ssize_t
tel_recv(void)
{
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	ssize_t n;
	int rc;

	do
		rc = poll(&pfd, 1, 20000);
	while (rc < 0 && errno == EINTR);
	if (rc != 1)
		return -1;
	do
		n = recv(sock, reply, sizeof(reply) - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	reply[n] = '\0';
	return n;
}

static ssize_t
tel_request(const char *msg, size_t len)
{
	ssize_t n;

	do
		n = send(sock, msg, len, 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)len)
		return -1;
	return tel_recv();
}

/* A JSON object: braces and brackets balanced outside strings, strings
 * closed, nothing after the closing brace. */
static bool
json_object(const char *s, size_t n)
{
	char stack[64];
	unsigned int depth = 0;
	bool str = false;
	size_t i;

	if (n < 2 || s[0] != '{')
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				str = false;
			else if ((unsigned char)c < 0x20)
				return false;
			continue;
		}
		if (c == '"') {
			str = true;
		} else if (c == '{' || c == '[') {
			if (depth == sizeof(stack))
				return false;
			stack[depth++] = c == '{' ? '}' : ']';
		} else if (c == '}' || c == ']') {
			if (depth == 0 || stack[--depth] != c)
				return false;
			if (depth == 0 && i + 1 != n)
				return false;
		}
	}
	return depth == 0 && !str;
}

/* The command list answer: {"/": ["/", "/eal/app_params", ...]} */
static void
read_commands(void)
{
	const char *p = reply;
	ssize_t n = tel_request("/", 1);

	if (n <= 0) {
		fprintf(stderr, "fuzz_telemetry: no answer to /\n");
		exit(1);
	}
	while ((p = strstr(p, "\"/mbufx/")) != NULL && nb_cmds < MAX_CMDS) {
		size_t len = strcspn(p + 1, "\"");

		if (len < sizeof(cmds[0]))
			snprintf(cmds[nb_cmds++], sizeof(cmds[0]), "%.*s", (int)len, p + 1);
		p += len + 1;
	}
	if (nb_cmds == 0) {
		fprintf(stderr, "fuzz_telemetry: no /mbufx/ command registered: %s\n", reply);
		exit(1);
	}
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct mbufx_zone_params p;
	unsigned int i;
	int rc;

	fuzz_eal_init("fuzz_telemetry", FUZZ_EAL_TELEMETRY);
	mbufx_zone_params_init(&p);
	for (i = 0; i < MBUFX_ZONE_NUM; i++) {
		p.count[i] = 63;
		p.cache[i] = MBUFX_ZONE_CACHE_NONE;
	}
	if (mbufx_zone_set_create("fztel", SOCKET_ID_ANY, &p) == NULL) {
		fprintf(stderr, "fuzz_telemetry: zone set: %s\n", rte_strerror(rte_errno));
		exit(1);
	}
	rc = tel_connect();
	if (rc < 0 || tel_recv() <= 0) {	/* the greeting */
		/* a platform without the socket (no runtime directory): skip */
		fprintf(stderr, "fuzz_telemetry: SKIP: cannot reach the telemetry socket "
			"in %s: %s\n", rte_eal_get_runtime_dir(), strerror(-rc));
		exit(77);
	}
	read_commands();
	if (getenv("FUZZ_VERBOSE") != NULL)
		for (i = 0; i < nb_cmds; i++)
			printf("fuzz_telemetry: target %s\n", cmds[i]);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char msg[MSG_MAX + 1];
	struct fuzz_in in = { data, size };
	uint8_t sel = fuzz_u8(&in);
	size_t len;
	ssize_t n;

	if (sel >= 0xf0) {
		len = fuzz_bytes(&in, msg, RTE_MIN(in.n, (size_t)MSG_MAX));
	} else {
		len = (size_t)snprintf(msg, sizeof(msg), "%s", cmds[sel % nb_cmds]);
		if (in.n > 0) {
			msg[len++] = ',';
			len += fuzz_bytes(&in, msg + len, RTE_MIN(in.n, MSG_MAX - len));
		}
	}
	/* an empty message is a closed connection to the server */
	if (len == 0)
		return 0;
	n = tel_request(msg, len);
	FUZZ_CHECK(n > 0, "%s to '%.*s'", n == 0 ? "connection closed in answer" :
		   "no answer", (int)len, msg);
	/* DPDK 22.11 echoes an unknown command into its answer unescaped:
	 * only answers to our commands are checked as JSON */
	if (sel < 0xf0)
		FUZZ_CHECK(json_object(reply, (size_t)n),
			   "answer to '%.*s' is not a JSON object: %s", (int)len, msg, reply);
	return 0;
}
