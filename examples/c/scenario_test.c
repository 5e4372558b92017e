/*
 * Plays the bindings scenario (examples/scenarios/bindings.json) through the
 * C ABI, with the handle API and the pure call side by side:
 *
 *   setup (Ecaz, Harkonnen, Atreides; fixed cohort) -> the host ends Storm ...
 *   Revival -> Ecaz places the Emperor token in Arrakeen -> the host allows it
 *   -> Ecaz finishes -> a Harkonnen shipment arrives in Arrakeen -> Ecaz
 *   triggers the token for itself (spiceGained 5, effectResolved, resume)
 *   -> the same trigger again is rejected as rule/stale_frame, state unchanged.
 *
 * Frame ids are not hard-coded: each is read from the events of the step
 * before. With a path argument, the steps are written there as a transcript,
 * one JSON line per step ({"step":N,"events":[...]} or {"step":N,"error":
 * "code"}), which scripts/ffi-check compares with the native engine's.
 *
 * Exit status 0 when every check passed.
 */
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

static const char SETUP[] =
    "{\"seats\":[\"ecaz\",\"harkonnen\",\"atreides\"],\"seed\":7,"
    "\"ambassadors\":{\"cohort\":[\"atreides\",\"beneGesserit\",\"choam\",\"emperor\",\"fremen\"]}}";

/* ---- a few string helpers (just enough JSON for the test) ---- */

static char *copy_text(const char *data, size_t len) {
    char *copy = malloc(len + 1);
    if (copy == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memcpy(copy, data, len);
    copy[len] = '\0';
    return copy;
}

/* The number after the last occurrence of `key` (e.g. "\"frame\":"), or -1. */
static long last_number_after(const char *json, const char *key) {
    const char *found = NULL;
    for (const char *p = strstr(json, key); p != NULL; p = strstr(p + 1, key)) {
        found = p;
    }
    if (found == NULL) {
        return -1;
    }
    return strtol(found + strlen(key), NULL, 10);
}

/* The kind of the last event of an events array ("resume" ...), copied into `kind`. */
static void last_event_kind(const char *events, char *kind, size_t size) {
    static const char key[] = "\"event\":{\"kind\":\"";
    const char *found = NULL;
    for (const char *p = strstr(events, key); p != NULL; p = strstr(p + 1, key)) {
        found = p;
    }
    kind[0] = '\0';
    if (found == NULL) {
        return;
    }
    found += strlen(key);
    size_t n = 0;
    while (found[n] != '\0' && found[n] != '"' && n + 1 < size) {
        kind[n] = found[n];
        n++;
    }
    kind[n] = '\0';
}

/* The "code" of an error report, copied into `code`. */
static void report_code(const EcazBuffer *report, char *code, size_t size) {
    static const char key[] = "\"code\":\"";
    code[0] = '\0';
    if (report == NULL) {
        return;
    }
    const char *found = strstr(report->data, key);
    if (found == NULL) {
        return;
    }
    found += strlen(key);
    size_t n = 0;
    while (found[n] != '\0' && found[n] != '"' && n + 1 < size) {
        code[n] = found[n];
        n++;
    }
    code[n] = '\0';
}

/* ---- the game, played twice: in a handle and through the pure call ---- */

typedef struct Player {
    EcazGame *game;    /* the handle */
    char *pure_state;  /* the same game as state JSON, for ecaz_apply_json */
    FILE *transcript;  /* NULL or the transcript file */
    int step;
} Player;

static char *handle_state(const EcazGame *game) {
    EcazBuffer *state = NULL;
    EcazStatus status = ecaz_game_state(game, &state);
    CHECK(status == ECAZ_STATUS_OK && state != NULL, "ecaz_game_state: status %d", (int)status);
    char *copy = state ? copy_text(state->data, state->len) : copy_text("", 0);
    ecaz_buffer_free(state);
    return copy;
}

/*
 * Apply `command` through the handle and the pure call; check they agree
 * (same events, same new state, byte for byte). Returns the events (caller
 * frees) or NULL when the handle refused the command, with its code in `code`.
 */
static char *play(Player *p, const char *command, char *code, size_t code_size) {
    p->step++;
    code[0] = '\0';

    EcazBuffer *events = NULL;
    EcazStatus status = ecaz_game_apply(p->game, command, strlen(command), &events);
    CHECK(events != NULL, "step %d: no buffer (status %d)", p->step, (int)status);

    EcazBuffer *doc = NULL;
    EcazStatus pure_status =
        ecaz_apply_json(p->pure_state, strlen(p->pure_state), command, strlen(command), &doc);
    CHECK(pure_status == status, "step %d: pure status %d, handle status %d", p->step, (int)pure_status,
          (int)status);

    char *result = NULL;
    if (status == ECAZ_STATUS_OK && events != NULL) {
        result = copy_text(events->data, events->len);
        /* The pure call's document is {"state":S,"events":E}: S must be the
         * handle's new state and E the handle's events. */
        char *state = handle_state(p->game);
        size_t expected_len = strlen("{\"state\":") + strlen(state) + strlen(",\"events\":") + events->len + 1;
        char *expected = malloc(expected_len + 1);
        if (expected == NULL) {
            exit(2);
        }
        snprintf(expected, expected_len + 1, "{\"state\":%s,\"events\":%s}", state, events->data);
        CHECK(doc != NULL && doc->len == expected_len && memcmp(doc->data, expected, expected_len) == 0,
              "step %d: the pure call and the handle disagree", p->step);
        free(expected);
        free(p->pure_state);
        p->pure_state = state;
        if (p->transcript) {
            fprintf(p->transcript, "{\"step\":%d,\"events\":%s}\n", p->step, events->data);
        }
    } else {
        report_code(events, code, code_size);
        char pure_code[64];
        report_code(doc, pure_code, sizeof pure_code);
        CHECK(strcmp(code, pure_code) == 0, "step %d: codes %s (handle) and %s (pure)", p->step, code,
              pure_code);
        if (p->transcript) {
            fprintf(p->transcript, "{\"step\":%d,\"error\":\"%s\"}\n", p->step, code);
        }
    }
    ecaz_buffer_free(events);
    ecaz_buffer_free(doc);
    return result;
}

/* Play a command that must be accepted; returns its events (caller frees). */
static char *accept(Player *p, const char *command) {
    char code[64];
    char *events = play(p, command, code, sizeof code);
    CHECK(events != NULL, "step %d refused (%s): %s", p->step, code, command);
    return events ? events : copy_text("[]", 2);
}

static long frame_opened_by(const char *events) {
    long frame = last_number_after(events, "\"frame\":");
    CHECK(frame > 0, "no frame in %s", events);
    return frame;
}

int main(int argc, char **argv) {
    Player p = {0};
    if (argc > 1) {
        p.transcript = fopen(argv[1], "w");
        if (p.transcript == NULL) {
            perror(argv[1]);
            return 2;
        }
    }

    /* Setup: a handle, and the same game as state JSON. */
    EcazBuffer *error = NULL;
    EcazStatus status = ecaz_game_new(SETUP, strlen(SETUP), &p.game, &error);
    CHECK(status == ECAZ_STATUS_OK && p.game != NULL && error == NULL, "ecaz_game_new: status %d: %s",
          (int)status, error ? error->data : "");
    ecaz_buffer_free(error);
    if (p.game == NULL) {
        return 1;
    }
    EcazBuffer *state = NULL;
    status = ecaz_new_game_json(SETUP, strlen(SETUP), &state);
    CHECK(status == ECAZ_STATUS_OK && state != NULL, "ecaz_new_game_json: status %d", (int)status);
    p.pure_state = state ? copy_text(state->data, state->len) : copy_text("", 0);
    ecaz_buffer_free(state);
    char *initial = handle_state(p.game);
    CHECK(strcmp(initial, p.pure_state) == 0, "the handle and the pure call built different games");
    free(initial);

    /* The host walks the turn to the end of Revival. */
    static const char *const phases[] = {"storm", "spiceBlow", "choamCharity", "bidding", "revival"};
    char command[512];
    char *events = NULL;
    for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++) {
        snprintf(command, sizeof command, "{\"actor\":\"host\",\"action\":{\"kind\":\"endPhase\",\"phase\":\"%s\"}}",
                 phases[i]);
        free(events);
        events = accept(&p, command);
    }
    CHECK(strstr(events, "\"kind\":\"placementOpened\"") != NULL, "Revival's end opens placement: %s", events);
    long frame = frame_opened_by(events);

    /* Ecaz announces the Emperor token for Arrakeen; the host allows it. */
    snprintf(command, sizeof command,
             "{\"actor\":\"ecaz\",\"action\":{\"kind\":\"place\",\"frame\":%ld,\"token\":\"emperor\","
             "\"territory\":\"arrakeen\"}}",
             frame);
    free(events);
    events = accept(&p, command);
    frame = frame_opened_by(events);
    snprintf(command, sizeof command, "{\"actor\":\"host\",\"action\":{\"kind\":\"allowPlacement\",\"frame\":%ld}}",
             frame);
    free(events);
    events = accept(&p, command);
    CHECK(strstr(events, "\"kind\":\"ambassadorPlaced\"") != NULL, "placed: %s", events);
    frame = frame_opened_by(events);
    snprintf(command, sizeof command, "{\"actor\":\"ecaz\",\"action\":{\"kind\":\"finishPlacement\",\"frame\":%ld}}",
             frame);
    free(events);
    events = accept(&p, command);

    /* A Harkonnen shipment arrives in Arrakeen: Ecaz is offered the trigger. */
    free(events);
    events = accept(&p, "{\"actor\":\"host\",\"action\":{\"kind\":\"arrive\",\"entrant\":\"harkonnen\","
                        "\"cause\":\"shipment\",\"from\":{\"kind\":\"reserves\"},\"territory\":\"arrakeen\","
                        "\"sector\":10,\"normal\":3}}");
    CHECK(strstr(events, "\"kind\":\"triggerOffer\"") != NULL, "trigger offered: %s", events);
    frame = frame_opened_by(events);

    /* Ecaz triggers the Emperor token for itself. */
    char trigger[256];
    snprintf(trigger, sizeof trigger,
             "{\"actor\":\"ecaz\",\"action\":{\"kind\":\"trigger\",\"frame\":%ld,\"beneficiary\":\"ecaz\"}}", frame);
    free(events);
    events = accept(&p, trigger);
    CHECK(strstr(events, "{\"kind\":\"spiceGained\",\"faction\":\"ecaz\",\"amount\":5}") != NULL,
          "spiceGained 5: %s", events);
    CHECK(strstr(events, "\"kind\":\"effectResolved\"") != NULL, "effectResolved: %s", events);
    char kind[64];
    last_event_kind(events, kind, sizeof kind);
    CHECK(strcmp(kind, "resume") == 0, "resume last, not %s", kind);
    free(events);

    /* The same trigger again: stale, refused, nothing changed. */
    char *before = handle_state(p.game);
    char code[64];
    events = play(&p, trigger, code, sizeof code);
    CHECK(events == NULL, "the stale trigger was accepted");
    CHECK(strcmp(code, "rule/stale_frame") == 0, "code %s", code);
    char *after = handle_state(p.game);
    CHECK(strcmp(before, after) == 0, "a rejected command changed the state");
    free(before);
    free(after);
    free(events);

    /* Views and options: the handle and the pure calls agree. */
    EcazBuffer *a = NULL;
    EcazBuffer *b = NULL;
    status = ecaz_game_view(p.game, "ecaz", 4, &a);
    CHECK(status == ECAZ_STATUS_OK, "ecaz_game_view: %d", (int)status);
    status = ecaz_view_json(p.pure_state, strlen(p.pure_state), "\"ecaz\"", 6, &b);
    CHECK(status == ECAZ_STATUS_OK, "ecaz_view_json: %d", (int)status);
    CHECK(a && b && a->len == b->len && memcmp(a->data, b->data, a->len) == 0, "views differ");
    ecaz_buffer_free(a);
    ecaz_buffer_free(b);
    a = b = NULL;
    status = ecaz_game_options(p.game, "host", 4, &a);
    CHECK(status == ECAZ_STATUS_OK, "ecaz_game_options: %d", (int)status);
    status = ecaz_options_json(p.pure_state, strlen(p.pure_state), "host", 4, &b);
    CHECK(status == ECAZ_STATUS_OK, "ecaz_options_json: %d", (int)status);
    CHECK(a && b && a->len == b->len && memcmp(a->data, b->data, a->len) == 0, "options differ");
    ecaz_buffer_free(a);
    ecaz_buffer_free(b);

    /* A saved state restores to the same game. */
    EcazGame *restored = NULL;
    status = ecaz_game_from_state(p.pure_state, strlen(p.pure_state), &restored, NULL);
    CHECK(status == ECAZ_STATUS_OK && restored != NULL, "ecaz_game_from_state: %d", (int)status);
    if (restored != NULL) {
        char *again = handle_state(restored);
        CHECK(strcmp(again, p.pure_state) == 0, "the restored state differs");
        free(again);
    }

    ecaz_game_free(restored);
    ecaz_game_free(p.game);
    free(p.pure_state);
    if (p.transcript != NULL && fclose(p.transcript) != 0) {
        perror("transcript");
        failed++;
    }
    printf("scenario: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
