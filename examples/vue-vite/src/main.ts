import { createApp } from 'vue';
import 'esign-elements/identify';
import 'esign-elements/sign';
import App from './App.vue';

createApp(App).mount('#app');
