/** WCAG 2.2 AA in the browser (widget): see ./accessibility.ts. */
import { accessibilitySuite } from './accessibility';

accessibilitySuite('widget');
