// The board of each game, by the game's registry name.

import { dolphinfox } from "./dolphinfox.js";
import { santorini } from "./santorini.js";

export const RENDERERS = { dolphinfox, santorini };
