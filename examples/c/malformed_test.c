/*
 * Pushes malformed input through every export of the C ABI: NULL pointers
 * (with and without a length), huge length claims, invalid UTF-8, truncated
 * JSON, mutated JSON and random bytes. Nothing may crash, leak (run it under
 * valgrind) or return OK without a buffer; every failure must carry an error
 * report with a code. Exit status 0 when every check passed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecaz.h"

static int passed;
static int failed;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            passed++;                                                                              \
        } else {                                                                                   \
            failed++;                                                                              \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

static const char SETUP[] = "{\"seats\":[\"ecaz\",\"harkonnen\",\"atreides\"],\"seed\":7}";
static const char COMMAND[] = "{\"actor\":\"host\",\"action\":{\"kind\":\"endPhase\",\"phase\":\"storm\"}}";

/* A deterministic pseudo-random sequence (xorshift64*). */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint32_t next_random(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Du) >> 32);
}

static int has_code(const EcazBuffer *buffer, const char *code) {
    char needle[96];
    snprintf(needle, sizeof needle, "\"code\":\"%s\"", code);
    return buffer != NULL && strstr(buffer->data, needle) != NULL;
}

/* The contract of every call: OK hands out what the call has, a failure hands
 * out a report that starts with {"code":". Frees the buffer. */
static void check_outcome(const char *what, EcazStatus status, EcazBuffer *out, int has_output) {
    if (status == ECAZ_STATUS_OK) {
        CHECK(has_output ? out != NULL : out == NULL, "%s: OK with %s buffer", what, out ? "a" : "no");
    } else {
        CHECK(status >= ECAZ_STATUS_ERROR && status <= ECAZ_STATUS_PANIC, "%s: status %d", what, (int)status);
        CHECK(status != ECAZ_STATUS_PANIC, "%s: panicked: %s", what, out ? out->data : "");
        CHECK(out != NULL && strncmp(out->data, "{\"code\":\"", 9) == 0, "%s: no report", what);
    }
    if (out != NULL) {
        CHECK(out->data[out->len] == '\0' && strlen(out->data) == out->len, "%s: buffer not NUL-terminated",
              what);
    }
    ecaz_buffer_free(out);
}

/* Every export with one malformed input in the given position. `game` is a
 * live handle that the calls may change (a command might even be accepted). */
static void every_export(EcazGame *game, const char *state, const char *bytes, size_t len) {
    EcazBuffer *out = NULL;
    EcazStatus status;

    status = ecaz_new_game_json(bytes, len, &out);
    check_outcome("ecaz_new_game_json", status, out, 1);
    status = ecaz_apply_json(bytes, len, COMMAND, strlen(COMMAND), &out);
    check_outcome("ecaz_apply_json(state)", status, out, 1);
    status = ecaz_apply_json(state, strlen(state), bytes, len, &out);
    check_outcome("ecaz_apply_json(command)", status, out, 1);
    status = ecaz_view_json(bytes, len, "host", 4, &out);
    check_outcome("ecaz_view_json(state)", status, out, 1);
    status = ecaz_view_json(state, strlen(state), bytes, len, &out);
    check_outcome("ecaz_view_json(viewer)", status, out, 1);
    status = ecaz_options_json(bytes, len, "host", 4, &out);
    check_outcome("ecaz_options_json(state)", status, out, 1);
    status = ecaz_options_json(state, strlen(state), bytes, len, &out);
    check_outcome("ecaz_options_json(actor)", status, out, 1);

    EcazGame *other = NULL;
    status = ecaz_game_new(bytes, len, &other, &out);
    check_outcome("ecaz_game_new", status, out, 0);
    ecaz_game_free(other);
    other = NULL;
    status = ecaz_game_from_state(bytes, len, &other, &out);
    check_outcome("ecaz_game_from_state", status, out, 0);
    ecaz_game_free(other);

    status = ecaz_game_apply(game, bytes, len, &out);
    check_outcome("ecaz_game_apply", status, out, 1);
    status = ecaz_game_view(game, bytes, len, &out);
    check_outcome("ecaz_game_view", status, out, 1);
    status = ecaz_game_options(game, bytes, len, &out);
    check_outcome("ecaz_game_options", status, out, 1);
}

static char *state_of(const EcazGame *game) {
    EcazBuffer *out = NULL;
    if (ecaz_game_state(game, &out) != ECAZ_STATUS_OK) {
        fprintf(stderr, "ecaz_game_state failed\n");
        exit(2);
    }
    char *copy = malloc(out->len + 1);
    if (copy == NULL) {
        exit(2);
    }
    memcpy(copy, out->data, out->len + 1);
    ecaz_buffer_free(out);
    return copy;
}

int main(void) {
    EcazGame *game = NULL;
    EcazBuffer *out = NULL;
    EcazStatus status = ecaz_game_new(SETUP, strlen(SETUP), &game, NULL);
    if (status != ECAZ_STATUS_OK) {
        fprintf(stderr, "setup refused\n");
        return 1;
    }
    char *state = state_of(game);
    size_t state_len = strlen(state);

    /* NULL with a length, and huge length claims: refused unread. */
    const size_t huge[] = {1, 64, (size_t)ECAZ_MAX_INPUT_LEN + 1, SIZE_MAX / 2, SIZE_MAX};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
        status = ecaz_apply_json(NULL, huge[i], COMMAND, strlen(COMMAND), &out);
        CHECK(status == ECAZ_STATUS_NULL_ARGUMENT && has_code(out, "decode/null_input"), "NULL state, len %zu",
              huge[i]);
        ecaz_buffer_free(out);
        status = ecaz_game_apply(game, NULL, huge[i], &out);
        CHECK(status == ECAZ_STATUS_NULL_ARGUMENT, "NULL command, len %zu", huge[i]);
        ecaz_buffer_free(out);
        every_export(game, state, NULL, huge[i]);
    }
    const size_t too_long[] = {(size_t)ECAZ_MAX_INPUT_LEN + 1, SIZE_MAX / 2, SIZE_MAX};
    for (size_t i = 0; i < sizeof too_long / sizeof too_long[0]; i++) {
        status = ecaz_apply_json(state, too_long[i], COMMAND, strlen(COMMAND), &out);
        CHECK(status == ECAZ_STATUS_INPUT_TOO_LARGE && has_code(out, "decode/input_too_large"), "len %zu",
              too_long[i]);
        ecaz_buffer_free(out);
        every_export(game, state, state, too_long[i]);
    }

    /* NULL with length 0 is the empty input: invalid JSON. */
    status = ecaz_new_game_json(NULL, 0, &out);
    CHECK(status == ECAZ_STATUS_ERROR && has_code(out, "decode/invalid_json"), "empty setup");
    ecaz_buffer_free(out);
    every_export(game, state, NULL, 0);
    every_export(game, state, "", 0);

    /* NULL handles and out-parameters. */
    CHECK(ecaz_game_apply(NULL, COMMAND, strlen(COMMAND), &out) == ECAZ_STATUS_NULL_ARGUMENT, "NULL game");
    CHECK(has_code(out, "decode/null_input"), "NULL game report");
    ecaz_buffer_free(out);
    CHECK(ecaz_game_state(NULL, &out) == ECAZ_STATUS_NULL_ARGUMENT, "NULL game state");
    ecaz_buffer_free(out);
    CHECK(ecaz_game_view(NULL, "host", 4, &out) == ECAZ_STATUS_NULL_ARGUMENT, "NULL game view");
    ecaz_buffer_free(out);
    CHECK(ecaz_game_options(NULL, "host", 4, &out) == ECAZ_STATUS_NULL_ARGUMENT, "NULL game options");
    ecaz_buffer_free(out);
    CHECK(ecaz_apply_json(state, state_len, COMMAND, strlen(COMMAND), NULL) == ECAZ_STATUS_NULL_ARGUMENT,
          "NULL out");
    CHECK(ecaz_game_state(game, NULL) == ECAZ_STATUS_NULL_ARGUMENT, "NULL out (state)");
    CHECK(ecaz_new_game_json(SETUP, strlen(SETUP), NULL) == ECAZ_STATUS_NULL_ARGUMENT, "NULL out (new)");
    CHECK(ecaz_game_new(SETUP, strlen(SETUP), NULL, &out) == ECAZ_STATUS_NULL_ARGUMENT, "NULL out_game");
    ecaz_buffer_free(out);
    CHECK(ecaz_game_new("{", 1, NULL, NULL) == ECAZ_STATUS_NULL_ARGUMENT, "NULL out_game and out_error");
    EcazGame *none = NULL;
    CHECK(ecaz_game_new("{", 1, &none, NULL) == ECAZ_STATUS_ERROR && none == NULL, "no report wanted");
    ecaz_game_free(NULL);
    ecaz_buffer_free(NULL);

    /* Invalid UTF-8. */
    static const char *const not_utf8[] = {"\xff", "{\"seats\":[\"\xc3\x28\"]}", "\xed\xa0\x80", "\"\xf8\x88\x80\x80\x80\""};
    for (size_t i = 0; i < sizeof not_utf8 / sizeof not_utf8[0]; i++) {
        status = ecaz_new_game_json(not_utf8[i], strlen(not_utf8[i]), &out);
        CHECK(status == ECAZ_STATUS_INVALID_UTF8 && has_code(out, "decode/invalid_utf8"), "not UTF-8 #%zu", i);
        ecaz_buffer_free(out);
        every_export(game, state, not_utf8[i], strlen(not_utf8[i]));
    }

    /* Truncated JSON: every prefix of a command, of a setup, and of the state
     * (every 97th byte of it). A prefix is never accepted. */
    for (size_t len = 0; len < strlen(COMMAND); len++) {
        status = ecaz_apply_json(state, state_len, COMMAND, len, &out);
        CHECK(status == ECAZ_STATUS_ERROR, "command prefix %zu", len);
        ecaz_buffer_free(out);
        every_export(game, state, COMMAND, len);
    }
    for (size_t len = 0; len < strlen(SETUP); len++) {
        EcazGame *other = NULL;
        status = ecaz_game_new(SETUP, len, &other, &out);
        CHECK(status == ECAZ_STATUS_ERROR && other == NULL, "setup prefix %zu", len);
        ecaz_buffer_free(out);
    }
    for (size_t len = 0; len < state_len; len += 97) {
        status = ecaz_apply_json(state, len, COMMAND, strlen(COMMAND), &out);
        CHECK(status == ECAZ_STATUS_ERROR, "state prefix %zu", len);
        ecaz_buffer_free(out);
        EcazGame *other = NULL;
        status = ecaz_game_from_state(state, len, &other, &out);
        CHECK(status == ECAZ_STATUS_ERROR && other == NULL, "state prefix %zu", len);
        ecaz_buffer_free(out);
    }

    /* Wrong shapes and types. */
    static const char *const shapes[] = {
        "null", "[]", "[1,2]", "42", "\"host\"", "{}", "{\"actor\":5,\"action\":{}}",
        "{\"actor\":\"host\",\"action\":{\"kind\":\"noSuchKind\"}}",
        "{\"actor\":\"host\",\"action\":{\"kind\":\"endPhase\",\"phase\":\"storm\"},\"extra\":1}",
        "{\"actor\":\"ecaz\",\"action\":{\"kind\":\"place\",\"frame\":-1,\"token\":\"ecaz\",\"territory\":\"arrakeen\"}}",
        "{\"actor\":\"ecaz\",\"action\":{\"kind\":\"place\",\"frame\":99999999999999999999,\"token\":\"x\"}}",
        "{\"seats\":[],\"seed\":-1}", "{\"seats\":[\"ecaz\",\"ecaz\"]}", "{\"version\":999}",
        "{\"seats\":[\"ecaz\"],\"seed\":1e400}", "nobody", "\"nobody\"", "[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]",
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        every_export(game, state, shapes[i], strlen(shapes[i]));
    }

    /* Deep nesting: the JSON parser's recursion limit, not the stack. */
    size_t deep_len = 100000;
    char *deep = malloc(deep_len);
    if (deep == NULL) {
        return 2;
    }
    memset(deep, '[', deep_len);
    every_export(game, state, deep, deep_len);
    memset(deep, '{', deep_len);
    every_export(game, state, deep, deep_len);
    free(deep);

    /* Random bytes, and the state and a command with random bytes changed. */
    char noise[64];
    for (int round = 0; round < 200; round++) {
        size_t len = next_random() % sizeof noise;
        for (size_t i = 0; i < len; i++) {
            noise[i] = (char)(next_random() & 0xff);
        }
        every_export(game, state, noise, len);
    }
    char *mutated = malloc(state_len + 1);
    if (mutated == NULL) {
        return 2;
    }
    for (int round = 0; round < 60; round++) {
        memcpy(mutated, state, state_len + 1);
        int changes = 1 + (int)(next_random() % 4);
        for (int c = 0; c < changes; c++) {
            mutated[next_random() % state_len] = (char)(next_random() & 0xff);
        }
        status = ecaz_apply_json(mutated, state_len, COMMAND, strlen(COMMAND), &out);
        check_outcome("mutated state", status, out, 1);
        EcazGame *other = NULL;
        status = ecaz_game_from_state(mutated, state_len, &other, &out);
        check_outcome("mutated state (handle)", status, out, 0);
        ecaz_game_free(other);
    }
    free(mutated);
    char command[sizeof COMMAND];
    for (int round = 0; round < 300; round++) {
        memcpy(command, COMMAND, sizeof COMMAND);
        command[next_random() % (sizeof COMMAND - 1)] = (char)(next_random() & 0xff);
        every_export(game, state, command, sizeof COMMAND - 1);
    }

    ecaz_game_free(game);
    free(state);
    printf("malformed: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
