// The board of each game, by the game's registry name.

import { dolphinfox } from "./dolphinfox.js";
import { eriantys } from "./eriantys.js";
import { renaissance } from "./renaissance.js";
import { santorini } from "./santorini.js";

export const RENDERERS = { dolphinfox, eriantys, renaissance, santorini };
