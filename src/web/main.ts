/** The page of the static build (`npm run build:web` → dist/web/): Thoth runs inside it. */
import { PageController } from '../gui/page/controller';
import { EngineClient } from '../gui/page/engine';
import { LocalLink } from './link';

new PageController(new EngineClient(new LocalLink()));
