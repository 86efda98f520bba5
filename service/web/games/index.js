// The board of each game, by the game's registry name. (Masters of Renaissance: not yet.)

import { dolphinfox } from "./dolphinfox.js";
import { eriantys } from "./eriantys.js";
import { santorini } from "./santorini.js";

export const RENDERERS = { dolphinfox, eriantys, santorini };
