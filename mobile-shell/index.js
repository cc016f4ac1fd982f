// The app's entry point: registers the root component under the name in app.json.
import { AppRegistry } from 'react-native';
import { App } from './src/App';
import { name } from './app.json';

AppRegistry.registerComponent(name, () => App);
