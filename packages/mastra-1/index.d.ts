/** The folder of @memory-matrix/mastra-1, from which the Mastra 1.x packages are resolved. */
export declare const MASTRA_1_DIR: string;
