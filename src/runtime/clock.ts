/** The runtime's name for the shared clock module (src/clock), kept so existing imports keep working. */
export { realClock, after, type Clock, type Timer } from '../clock/clock.js';
