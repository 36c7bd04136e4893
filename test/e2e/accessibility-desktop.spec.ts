/** WCAG 2.2 AA in the browser (desktop): see ./accessibility.ts. */
import { accessibilitySuite } from './accessibility';

accessibilitySuite('desktop');
