/* An executable whose main() lives in a static library. */
