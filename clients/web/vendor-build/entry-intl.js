export { IntlMessageFormat } from 'intl-messageformat';
