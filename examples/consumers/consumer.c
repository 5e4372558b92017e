/*
 * A C program built only from an installed prefix (scripts/c-install), the
 * way a game links the library it found with pkg-config or CMake:
 *
 *   cc consumer.c $(pkg-config --cflags --libs ecaz) -o consumer
 *
 * It checks that the header and the library are the same release (the
 * version macros against ecaz_version(), D-212), then plays one host command
 * and one refused command through a game handle.
 */
#include <stdio.h>
#include <string.h>

#include <ecaz.h>

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

static int apply(EcazGame *game, const char *command, EcazStatus expected) {
    EcazBuffer *out = NULL;
    EcazStatus status = ecaz_game_apply(game, command, strlen(command), &out);
    int ok = status == expected && out != NULL && out->len > 0;
    if (!ok) {
        fprintf(stderr, "consumer: %s gave status %d, expected %d\n", command, (int)status, (int)expected);
    }
    ecaz_buffer_free(out);
    return ok;
}

int main(void) {
    const char *library = ecaz_version();
    const char *macros =
        STRINGIFY(ECAZ_VERSION_MAJOR) "." STRINGIFY(ECAZ_VERSION_MINOR) "." STRINGIFY(ECAZ_VERSION_PATCH);
    if (strcmp(library, ECAZ_VERSION) != 0 || strncmp(ECAZ_VERSION, macros, strlen(macros)) != 0) {
        fprintf(stderr, "consumer: header %s (%s) but library %s\n", ECAZ_VERSION, macros, library);
        return 1;
    }

    static const char setup[] = "{\"seats\":[\"ecaz\",\"atreides\"],\"seed\":42}";
    EcazGame *game = NULL;
    EcazBuffer *error = NULL;
    if (ecaz_game_new(setup, strlen(setup), &game, &error) != ECAZ_STATUS_OK) {
        fprintf(stderr, "consumer: setup refused: %s\n", error != NULL ? error->data : "?");
        ecaz_buffer_free(error);
        return 1;
    }
    int ok = apply(game, "{\"actor\":\"host\",\"action\":{\"kind\":\"endPhase\",\"phase\":\"storm\"}}",
                   ECAZ_STATUS_OK) &&
             apply(game, "{\"actor\":\"ecaz\",\"action\":{\"kind\":\"endPhase\",\"phase\":\"spiceBlow\"}}",
                   ECAZ_STATUS_ERROR);
    ecaz_game_free(game);
    if (!ok) {
        return 1;
    }
    printf("ecaz %s (header %s): ok\n", library, ECAZ_VERSION);
    return 0;
}
