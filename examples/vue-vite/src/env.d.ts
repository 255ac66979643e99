// the elements' template types (GlobalComponents) for strict templates
import type {} from 'esign-elements/vue';
