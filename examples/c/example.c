/*
 * The smallest useful C host of the Ecaz rules engine: create a game, report
 * a phase boundary, print the events, see a rejected command, print a view,
 * save the state, free everything.
 *
 * Build (from the repository root, after `cargo build -p ecaz-ffi`):
 *   gcc -std=c11 -Wall -Wextra -Werror -Iffi/include examples/c/example.c \
 *       target/debug/libecaz_ffi.a -lpthread -ldl -lm -o example
 */
#include <stdio.h>
#include <string.h>

#include "ecaz.h"

/* Apply one command to the game and print what came back. */
static EcazStatus play(EcazGame *game, const char *command) {
    EcazBuffer *out = NULL;
    EcazStatus status = ecaz_game_apply(game, command, strlen(command), &out);
    if (status == ECAZ_STATUS_OK) {
        printf("events: %s\n", out->data);
    } else {
        /* The report: {"code":"rule/…","message":"…","rule":"R-…"} */
        printf("rejected (status %d): %s\n", (int)status, out ? out->data : "(no report)");
    }
    ecaz_buffer_free(out);
    return status;
}

int main(void) {
    static const char setup[] = "{\"seats\":[\"ecaz\",\"atreides\"],\"seed\":42}";
    printf("ecaz %s, state format %u\n", ecaz_version(), (unsigned)ecaz_format_version());

    EcazGame *game = NULL;
    EcazBuffer *error = NULL;
    if (ecaz_game_new(setup, strlen(setup), &game, &error) != ECAZ_STATUS_OK) {
        fprintf(stderr, "setup refused: %s\n", error ? error->data : "?");
        ecaz_buffer_free(error);
        return 1;
    }

    /* The host reports the end of the Storm phase. */
    if (play(game, "{\"actor\":\"host\",\"action\":{\"kind\":\"endPhase\",\"phase\":\"storm\"}}") !=
        ECAZ_STATUS_OK) {
        ecaz_game_free(game);
        return 1;
    }
    /* Ecaz answers a decision that is not open: rejected, nothing changes. */
    if (play(game, "{\"actor\":\"ecaz\",\"action\":{\"kind\":\"finishPlacement\",\"frame\":9}}") !=
        ECAZ_STATUS_ERROR) {
        ecaz_game_free(game);
        return 1;
    }

    /* What a spectator may see, and the state to persist. */
    EcazBuffer *view = NULL;
    EcazBuffer *state = NULL;
    int ok = ecaz_game_view(game, "spectator", strlen("spectator"), &view) == ECAZ_STATUS_OK &&
             ecaz_game_state(game, &state) == ECAZ_STATUS_OK;
    if (ok) {
        printf("spectator view: %zu bytes\nstate: %zu bytes\n", view->len, state->len);
    }
    ecaz_buffer_free(view);
    ecaz_buffer_free(state);
    ecaz_game_free(game);
    return ok ? 0 : 1;
}
